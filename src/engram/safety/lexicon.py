"""The instruction rules: families of regexes about the shape of an injection, in many languages.

`RULES` is a list of (family, pattern, extra check or None) matched against every view of a text
(engram.safety.views); `COMPACT_RULES` are read with every space and symbol removed, for text whose
letters were set apart. `LEET_VOCAB` is the trigger vocabulary leetspeak is read into.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["ADDRESSEE", "AMBIGUOUS_LEET", "COMPACT_RULES", "DIRECTIVE", "LEET_VOCAB", "OBLIGATION", "RULES", "rule_names"]

def _alt(*words: str) -> str:
    return "(?:" + "|".join(words) + ")"


_W = r"[^\W_]+"  # one word (letters or digits)
_S = r"[\W_]+"  # a separator between words


def _gap(n: int) -> str:
    """Up to n intervening words."""
    return rf"(?:{_W}{_S}){{0,{n}}}?"


def _clause_gap(n: int) -> str:
    """Up to n intervening words within one sentence ("you are using. Aim to keep ..." is two)."""
    return rf"(?:{_W}[^\w.!?;\n]+){{0,{n}}}?"


# English imperative context: start of a clause, or after a softener / modal / adverb.
_IMP = (r"(?:^|[.!?;:,\-\"'(\[{*>|/]\s*|\b(?:please|pls|plz|now|just|and|then|so|also|kindly|immediately|first|"
        r"simply|always|must|should|shall|will|you would|you could|you can|you may|you might|to|you|u|hereby|henceforth|next|instead|quickly|completely|"
        r"entirely|totally|but|or|silently|secretly|quietly|automatically|already|going forward|from now on|"
        r"assistant|ai|bot|model|claude|chatgpt|gpt|gemini|copilot)\s+)")

_EN_OVERRIDE_V = _alt(r"ignore", r"disregard", r"forget", r"override", r"overrule", r"bypass", r"skip", r"drop",
                      r"discard", r"abandon", r"neglect", r"dismiss", r"nullify", r"void", r"cancel", r"erase",
                      r"delete", r"wipe", r"scrap", r"throw away", r"set aside", r"put aside", r"stop following",
                      r"don'?t follow", r"do not follow", r"no longer follow", r"stop obeying", r"disobey",
                      r"circumvent", r"ignoring", r"disregarding", r"forgetting", r"overwrite", r"replace",
                      r"supersede", r"pay no attention to", r"do not obey", r"don'?t obey", r"stop listening to")
_EN_PRIOR = _alt(r"previous(?:ly)?", r"prior", r"above", r"earlier", r"preceding", r"foregoing", r"former",
                 r"original", r"initial", r"old(?:er)?", r"existing", r"all", r"any", r"every", r"your", r"its",
                 r"system", r"developer'?s?", r"default", r"built-?in", r"pre-?set", r"programmed", r"given",
                 r"current", r"standing", r"core", r"base", r"safety", r"openai'?s?", r"anthropic'?s?", r"opening",
                 r"starting", r"first", r"setup", r"hidden", r"secret")
_EN_INSTR = _alt(r"instructions?", r"directives?", r"rules?", r"guidelines?", r"guardrails?", r"prompts?",
                 r"programming", r"training", r"constraints?", r"restrictions?", r"limitations?", r"polic(?:y|ies)",
                 r"commands?", r"orders?", r"guidance", r"system messages?", r"safeguards?", r"protocols?",
                 r"principles", r"conditioning", r"alignment", r"directions", r"content polic(?:y|ies)",
                 r"ethical guidelines", r"filters?", r"moderation")
_EN_SECRET_WORDS = (r"api[\W_]*keys?|passwords?|passcodes?|credentials?|secrets?|(?:api|access|auth|bearer|session|"
                    r"refresh|oauth|github|slack|security|login)[\W_]+tokens?|private[\W_]+keys?|ssh[\W_]+keys?|"
               r"(?:credit[\W_]+)?card[\W_]+(?:numbers|details)|bank[\W_]+(?:details|account[\W_]+numbers)|"
               r"social[\W_]+security[\W_]+numbers|ssns|pins|(?:2fa|mfa|otp|one-?time|verification|security|login|"
               r"recovery|backup|auth(?:entication)?)[\W_]+codes?")
_EN_SECRETS = ("(?:" + _EN_SECRET_WORDS + ")"
               r"(?![\W_]+(?:reset|policy|policies|manager|hint|rules|field|change|rotation|expiry|strength|"
               r"requirements?|link|form|page|prompt|vault|store|length|budget|limit|count))")
_EN_SYSPROMPT = _alt(r"system[\W_]*prompts?", r"system[\W_]+messages?", r"initial[\W_]+prompts?",
                     r"hidden[\W_]+prompts?", r"developer[\W_]+(?:messages?|prompts?|instructions)", r"pre-?prompts?",
                     r"meta[\W_]*prompts?", r"(?:secret|hidden|internal|original|initial|system|confidential)"
                     r"[\W_]+(?:instructions|rules|guidelines|directives|configuration)",
                     r"(?:your|its)[\W_]+(?:instructions|rules|guidelines|directives|configuration|programming|"
                     r"prompts?|guardrails|training[\W_]+data)",
                     r"(?:the|your)[\W_]+(?:text|words|content|everything)[\W_]+(?:above|before)",
                     r"everything[\W_]+(?:above|before)[\W_]+(?:this|here)",
                     r"(?:the|all|every|your)[\W_]+(?:stored[\W_]+|saved[\W_]+)?memor(?:y|ies)[\W_]+(?:of|about)[\W_]+"
                     r"(?:the[\W_]+)?(?:user|other users|everyone)",
                     r"(?:everything|all|anything)[\W_]+(?:in|from)[\W_]+(?:your|the)[\W_]+(?:context(?:[\W_]+window)?|"
                     r"memory|prompt|instructions|configuration|system[\W_]+message)",
                     r"your[\W_]+context[\W_]+window",
                     r"(?:the[\W_]+)?(?:first|initial|opening|earliest|very[\W_]+first)[\W_]+(?:message|messages|lines?|"
                     r"text|words|turn)[\W_]+(?:of|in)[\W_]+(?:this|the|our)[\W_]+(?:conversation|chat|context|session|"
                     r"prompt)",
                     r"(?:your|its)[\W_]+(?:full|entire|complete|whole|original|initial|exact|hidden|secret|first|opening|"
                     r"starting|setup|underlying|internal)[\W_]+"
                     r"(?:prompt|instructions|rules|configuration)",
                     _EN_SECRETS + r"[\W_]+(?:of|for|from|belonging[\W_]+to)[\W_]+(?:the[\W_]+|all[\W_]+)?(?:other[\W_]+"
                     r"(?:users|people|customers|accounts)|all[\W_]+users|everyone|everybody)",
                     r"(?:other[\W_]+(?:users|people|customers)'?s?|everyone'?s|everybody'?s)[\W_]+(?:data|memor(?:y|ies)|"
                     r"messages|files|e-?mails|" + _EN_SECRET_WORDS + r")",
                     r"(?:all|every|any)[\W_]+(?:of[\W_]+the[\W_]+|your[\W_]+)?(?:stored|saved|remembered)[\W_]+(?:data|"
                     r"memor(?:y|ies)|facts|information|records|notes)",
                     r"(?:the[\W_]+user'?s?|users'?|all[\W_]+(?:stored[\W_]+|saved[\W_]+)?|(?:stored|saved)[\W_]+|"
                     r"their[\W_]+|any[\W_]+|every[\W_]+|each[\W_]+)" + _EN_SECRETS,
                     r"(?:the[\W_]+)?(?:hidden[\W_]+text|(?:text|message|content|words)[\W_]+at[\W_]+the[\W_]+(?:start|"
                     r"beginning|top)[\W_]+of[\W_]+(?:the|this|our)[\W_]+(?:conversation|chat|context|prompt))")
_EN_REVEAL_V = _alt(r"reveal", r"show", r"(?:reply|respond|answer|begin|start|end)(?:[\W_]+(?:first|only|always|"
                    r"immediately|then|again|every[\W_]+(?:time|answer|reply)))?(?:[\W_]+(?:to|on)(?:[\W_]+[^\W_]+){1,4}?)?"
                    r"[\W_]+with", r"print", r"output", r"display", r"repeat", r"leak", r"dump", r"tell",
                    r"give", r"share", r"expose", r"disclose", r"recite", r"write out", r"spell out", r"echo",
                    r"paste", r"copy", r"list", r"return", r"read back", r"type out", r"provide", r"state",
                    r"translate", r"summari[sz]e", r"send", r"include", r"insert", r"append", r"put", r"email")
_EN_DATA = (r"(?:e-?mails?|inbox|messages?|conversations?|chats?|chat[\W_]+logs?|(?:chat|conversation|browsing|search)"
            r"[\W_]+history|history|data|files?|documents?|memor(?:y|ies)|contacts?|address[\W_]+book|calendar|"
            r"location|photos?|notes|records|transcripts?|personal[\W_]+(?:data|information|details)|"
            r"information|info|details|context|logs?|cookies|sessions?|everything|questions?|quer(?:y|ies)|requests?|"
            r"inputs?|keystrokes|searches|answers|prompts?|(?:home[\W_]+|postal[\W_]+)?address(?:es)?|phone[\W_]+numbers?|"
            r"identity|salary|medical[\W_]+records|health[\W_]+data|" + _EN_SECRET_WORDS + r")")
_EN_OWNER = (r"(?:the[\W_]+user'?s?|user'?s|users'?|his|her|their|all(?:[\W_]+(?:of[\W_]+)?(?:the|his|her|their|"
             r"my))?|every|each|any|entire|whole|full|complete|my|our|stored|saved|private|personal)")
_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_URL = r"(?:https?://|www\.|ftp://)\S+|\b[\w-]+\.(?:com|net|org|io|xyz|ru|cn|tk|top|example|site|info|biz|me)\b\S*"
_DEST = rf"(?:{_EMAIL}|{_URL}|attacker|hacker|evil|malicious|external|third[\W_]+part(?:y|ies)|my[\W_]+server|" \
        r"this[\W_]+(?:address|url|server|endpoint|webhook|e-?mail|number|account|link)|the[\W_]+following|" \
        r"webhook|pastebin|ngrok|requestbin|burp|telegram|discord|outside|anyone|whoever|" \
        r"\+?\d[\d ().-]{6,}\d)"
_EN_SEND_V = _alt(r"forward", r"send", r"e-?mail", r"mail", r"post", r"upload", r"leak", r"copy", r"transmit",
                  r"share", r"exfiltrate", r"sync", r"b?cc", r"relay", r"deliver", r"dump", r"export", r"report",
                  r"pass[\W_]+on", r"submit", r"transfer", r"redirect", r"route", r"mirror", r"replicate",
                  r"push", r"publish", r"tweet", r"paste", r"attach", r"append", r"embed", r"include",
                  r"broadcast", r"disclose", r"reveal", r"give", r"wire")
_EN_BYPASS_V = _alt(r"skip", r"disable", r"bypass", r"ignore", r"turn[\W_]+off", r"switch[\W_]+off", r"deactivate",
                    r"remove", r"circumvent", r"override", r"suspend", r"lift", r"drop", r"avoid", r"evade",
                    r"get[\W_]+around", r"work[\W_]+around", r"neutrali[sz]e", r"break", r"stop[\W_]+(?:applying|"
                    r"enforcing|using|running|doing)", r"don'?t[\W_]+(?:apply|enforce|run|do|perform)",
                    r"do[\W_]+not[\W_]+(?:apply|enforce|run|do|perform)", r"forget[\W_]+about", r"waive",
                    r"omit", r"relax", r"loosen", r"kill", r"defeat", r"undo")
_EN_GUARD_Q = _alt(r"safety", r"security", r"content", r"moderation", r"ethic(?:s|al)", r"alignment", r"trust",
                   r"verification", r"authentication", r"approval", r"confirmation", r"permission", r"access",
                   r"identity", r"your", r"all", r"any", r"every", r"the[\W_]+usual", r"built-?in", r"privacy",
                   r"compliance", r"policy", r"harm", r"refusal", r"age")
_EN_GUARD_N = _alt(r"checks?", r"filters?", r"filtering", r"guardrails?", r"restrictions?", r"limitations?",
                   r"limits", r"polic(?:y|ies)", r"protocols?", r"protections?", r"safeguards?", r"guidelines?",
                   r"rules", r"measures", r"controls?", r"reviews?", r"steps?", r"mechanisms?", r"layers?",
                   r"features?", r"constraints?", r"censorship", r"moderation", r"verification", r"warnings?",
                   r"refusals?", r"prompts")

# Words that address the assistant or give it an order (after a role marker, they make it one).
_ADDRESSED = (r"\b(?:you|your|yours|the[\W_]+user|user'?s|assistant|ignore|skip|disable|do[\W_]+not|don'?t|"
              r"override|grant|obey|comply|reveal|forward|instructions?|previous|admin(?:istrator)?|restrictions?|"
              r"clearance|privileges?|refus\w*|jailbreak\w*|unrestricted|lifted|execute|trusted|commands?|"
              r"du|tu|vous|usted|"
              r"voce|ты|вы|ignor\w*|olvid\w*|oubli\w*|vergiss\w*|utilisateur|usuario|benutzer|nutzer|utente)\b|"
              r"你|あなた|당신|用户|用戶|ユーザー|사용자")

# Multilingual concepts (accents stripped, casefolded; CJK without word boundaries).
# A French verb after an auxiliary is a past participle ("a oublié les instructions du four": forgot), no order.
_FR_NOT_PAST = "".join(rf"(?<!\b{aux}\W)" for aux in ("a", "ai", "as", "ont", "avons", "avez", "avait", "avaient", "aurait"))
_ML_OVERRIDE = [
    # German
    r"\b(?:ignorier\w*|vergiss|vergessen|missacht\w*|ubergeh\w*|uberspring\w*|verwirf|verwerfen|hebe?\W+\w+\W+auf|"
    r"setze?\W+(?:\w+\W+){0,4}ausser\W+kraft|befolge\W+(?:\w+\W+)?nicht\W+mehr|hor\W+auf\W+(?:\w+\W+){0,3}?zu\W+befolgen|"
    r"folge\W+nicht\W+mehr)\b"
    r"(?:\W+\w+){0,4}?\W+(?:alle|samtliche\w*|vorherige\w*|vorige\w*|bisherige\w*|obige\w*|fruhere\w*|vorangegangene\w*|"
    r"ursprungliche\w*|deine\w*|ihre\w*|die)\b(?:\W+\w+){0,2}?\W+\w*(?:anweisung|instruktion|regel|richtlinie|"
    r"vorgabe|befehl|system\W*prompt|anordnung|einschrankung|beschrankung|vorschrift)\w*",
    r"\b(?:alle|samtliche\w*|vorherige\w*|bisherige\w*|obige\w*|deine\w*)\W+(?:\w+\W+){0,2}?(?:anweisung\w*|"
    r"instruktion\w*|regeln|richtlinien|vorgaben|befehle)\W+(?:\w+\W+){0,3}?(?:ignorieren|vergessen|missachten|"
    r"ubergehen|verwerfen)",
    # French
    _FR_NOT_PAST + r"\b(?:ignore[rz]?|oublie[rz]?|neglige[rz]?|ne\W+tiens\W+(?:plus|pas)\W+compte\W+d\w*|ne\W+tenez\W+(?:plus|pas)\W+"
    r"compte\W+d\w*|fais\W+abstraction\W+d\w*|faites\W+abstraction\W+d\w*|contourne[rz]?|passe[rz]?\W+outre|"
    r"n'?obei[sr]\w*\W+plus|abandonne[rz]?|efface[rz]?)\b(?:\W+\w+){0,3}?\W+(?:toutes?|tous|tes|vos|ces|les|"
    r"precedente?s|anterieure?s|ci-dessus|initiale?s)\b(?:\W+\w+){0,3}?\W+(?:instructions?|consignes?|regles|"
    r"directives?|ordres|prompt|invites?|restrictions|limites|commandes)\b",
    _FR_NOT_PAST + r"\b(?:ignore[rz]?|oublie[rz]?|neglige[rz]?|ne\W+tiens\W+(?:plus|pas)\W+compte|ne\W+tenez\W+(?:plus|pas)\W+compte|"
    r"fai(?:s|tes)\W+abstraction|contourne[rz]?|passe[rz]?\W+outre|abandonne[rz]?|efface[rz]?)\b(?:\W+\w+){0,3}?\W+"
    r"(?:instructions?|consignes?|regles|directives?|ordres|restrictions|limites|commandes)\W+(?:\w+\W+){0,1}?"
    r"(?:precedente?s|anterieure?s|ci-dessus|initiale?s|d'avant|actuelle?s|systeme)\b",
    # Spanish
    r"\b(?:ignora[rn]?|ignore[sn]?|olvida[rn]?|olvide[sn]?|descarta[rn]?|omite|omitir|haz\W+caso\W+omiso\W+a|"
    r"no\W+sigas|desobedece|anula[r]?|salta(?:te)?|pasa\W+por\W+alto|deja\W+de\W+(?:lado|seguir))\b"
    r"(?:\W+\w+){0,4}?\W+(?:instrucciones|indicaciones|reglas|directrices|ordenes|normas|restricciones|prompt|"
    r"directivas|pautas|consignas|comandos)\b",
    # Italian
    r"\b(?:ignora(?:re)?|ignori|dimentica(?:re)?|dimentichi|trascura|scarta|non\W+seguire|disattendi|salta|"
    r"tralascia|annulla)\b(?:\W+\w+){0,4}?\W+(?:istruzioni|indicazioni|regole|direttive|ordini|restrizioni|prompt|"
    r"linee\W+guida|limitazioni|comandi|consegne)\b",
    # Portuguese
    r"\b(?:ignore|ignora[r]?|esqueca|esquece[r]?|desconsidere|desconsidera[r]?|descarte|despreze|nao\W+siga|"
    r"desobedeca|anule|pule|deixe\W+de\W+lado)\b(?:\W+\w+){0,4}?\W+(?:instrucoes|instrucao|regras|diretrizes|ordens|"
    r"orientacoes|restricoes|prompt|comandos|normas|diretivas)\b",
    # Dutch
    r"\b(?:negeer|vergeet|veronachtzaam|omzeil|sla|volg\W+(?:\w+\W+){0,2}?niet\W+(?:meer|langer)|stop\W+met\W+het\W+volgen"
    r"\W+van)\b(?:\W+\w+){0,4}?\W+(?:instructies|regels|richtlijnen|opdrachten|"
    r"aanwijzingen|beperkingen|prompt|bevelen)\b",
    # Polish
    r"\b(?:zignoruj\w*|ignoruj\w*|zapomnij|pomin\w*|nie\W+stosuj\W+sie\W+do)\b(?:\W+\w+){0,4}?\W+(?:instrukcj\w*|"
    r"polecen\w*|zasad\w*|regu[lł]\w*|wytyczn\w*|ogranicze\w*)",
    # Turkish
    r"\b(?:onceki|tum|butun|yukaridaki|mevcut|sistem|sana\W+verilen)\b(?:\W+\w+){0,2}?\W+(?:talimat\w*|kural\w*|yonerge\w*|komut\w*)"
    r"(?:\W+\w+){0,2}?\W+(?:yok\W+say\w*|gormezden\W+gel\w*|unut\w*|dikkate\W+alma\w*|ihmal\W+et\w*)",
    # Vietnamese, Indonesian, Swedish, Greek, Hebrew, Thai: the verb, then both the instructions and a word that
    # makes them the model's own (previous, all, your, the system's), in either order; not after a negation
    r"(?:(?<!đung )(?<!dung )(?<!khong )\b(?:bo\W+qua|phot\W+lo|lo\W+đi|quen\W+đi)\b)[^.!?;。]{0,40}?(?:(?:\b(?:moi|tat\W+ca|truoc\W+đo|truoc|cua\W+ban|he\W+thong)\b)[^.!?;。]{0,40}?(?:\b(?:huong\W+dan|chi\W+dan|chi\W+thi|quy\W+tac|menh\W+lenh|lenh)\b)|(?:\b(?:huong\W+dan|chi\W+dan|chi\W+thi|quy\W+tac|menh\W+lenh|lenh)\b)[^.!?;。]{0,40}?(?:\b(?:moi|tat\W+ca|truoc\W+đo|truoc|cua\W+ban|he\W+thong)\b))",
    r"(?:(?<!jangan )\b(?:abaikan|lupakan|acuhkan)\b)[^.!?;。]{0,40}?(?:(?:\b(?:semua|sebelumnya|\w+mu|sistem)\b)[^.!?;。]{0,40}?(?:\b(?:instruksi|perintah|aturan|petunjuk|arahan)\w*)|(?:\b(?:instruksi|perintah|aturan|petunjuk|arahan)\w*)[^.!?;。]{0,40}?(?:\b(?:semua|sebelumnya|\w+mu|sistem)\b))",
    r"(?:\b(?:ignorera|glom|strunta\W+i|bortse\W+fran)\b(?!\W+inte))[^.!?;。]{0,40}?(?:(?:\b(?:tidigare|alla|dina|ditt|systemets|ovanstaende)\b)[^.!?;。]{0,40}?(?:\b(?:instruktion\w*|regler\w*|riktlinjer\w*|direktiv\w*))|(?:\b(?:instruktion\w*|regler\w*|riktlinjer\w*|direktiv\w*))[^.!?;。]{0,40}?(?:\b(?:tidigare|alla|dina|ditt|systemets|ovanstaende)\b))",
    r"(?:(?:αγνόησε|αγνοήστε|ξέχασε|ξεχάστε|παράβλεψε|παραβλέψτε))[^.!?;。]{0,40}?(?:(?:(?:προηγούμεν\w*|όλες|όλους|όλα|σου|συστήματος))[^.!?;。]{0,40}?(?:(?:οδηγί\w*|εντολ\w*|κανόν\w*|περιορισμ\w*))|(?:(?:οδηγί\w*|εντολ\w*|κανόν\w*|περιορισμ\w*))[^.!?;。]{0,40}?(?:(?:προηγούμεν\w*|όλες|όλους|όλα|σου|συστήματος)))",
    r"(?:(?:התעלם|התעלמי|התעלמו))[^.!?;。]{0,40}?(?:(?:(?:קודמות|הקודמות|הקודמים|כל|שלך|המערכת))[^.!?;。]{0,40}?(?:(?:הוראות|ההוראות|מההוראות|הנחיות|ההנחיות|מההנחיות|כללים|הכללים))|(?:(?:הוראות|ההוראות|מההוראות|הנחיות|ההנחיות|מההנחיות|כללים|הכללים))[^.!?;。]{0,40}?(?:(?:קודמות|הקודמות|הקודמים|כל|שלך|המערכת)))",
    r"(?:(?:เพิกเฉย|ละเว้น|ลืม|ไม่ต้องสนใจ))[^.!?;。]{0,40}?(?:(?:(?:ก่อนหน้า|ทั้งหมด|ของระบบ|ของคุณ))[^.!?;。]{0,40}?(?:(?:คําสั่ง|คําแนะนํา|กฎ|ข้อกําหนด))|(?:(?:คําสั่ง|คําแนะนํา|กฎ|ข้อกําหนด))[^.!?;。]{0,40}?(?:(?:ก่อนหน้า|ทั้งหมด|ของระบบ|ของคุณ)))",
    # Russian, Ukrainian
    r"(?:игнорируй\w*|проигнорируй\w*|забудь\w*|не\W+обращай\W+внимания\W+на|отбрось|отмени|пренебреги|ігноруй\w*|"
    r"не\W+следуй|не\W+подчиняйся|не\W+выполняй|перестань\W+(?:следовать|соблюдать|выполнять)|не\W+дотримуйся|"
    r"забудь|не\W+зважай\W+на)(?:\W+\w+){0,4}?\W+(?:инструкци\w*|указани\w*|правил\w*|команд\w*|ограничени\w*|"
    r"директив\w*|промпт\w*|інструкці\w*|вказівк\w*|обмежен\w*)",
    # Chinese
    r"(?:忽略|无视|無視|忽视|忽視|忘记|忘記|忘掉|不要理会|不要理會|不理会|抛弃|拋棄|放弃|放棄|跳过|跳過|绕过|繞過|丢弃|丟棄|"
    r"不再遵守|不要遵守|不要遵循|违背|違背)[^。.!！?？]{0,14}?(?:指令|指示|说明|說明|规则|規則|提示|命令|要求|限制|设定|設定|"
    r"约束|約束|指引|准则|準則)",
    r"(?:之前|以前|先前|上面|上述|前面|原来|原來|原有|所有|全部|一切|你的|系统|系統|此前)[^。.!！?？]{0,10}?(?:指令|指示|规则|"
    r"規則|提示|命令|限制|设定|設定|约束|約束)[^。.!！?？]{0,6}?(?:都|全部|一律)?(?:忽略|无视|無視|作废|作廢|失效|不算)",
    # Japanese
    r"(?:以前|前|上記|これまで|今まで|すべて|全て|全部|最初|元|あなた|システム)の?[^。]{0,12}?(?:指示|命令|ルール|規則|"
    r"プロンプト|制約|設定|指令|ガイドライン)[^。]{0,12}?(?:無視|忘れ|破棄|無効|従わな|従うのをやめ|守らな|守るのをやめ)",
    # Korean
    r"(?:이전|앞의|위의|모든|기존|지금까지|당신의|너의|시스템)[^.。]{0,12}?(?:지시|지침|명령|규칙|프롬프트|제한|설정)"
    r"[^.。]{0,12}?(?:무시|잊어|잊으|잊고|버려|따르지)",
    # Arabic, Hindi
    r"(?:تجاهل|انس|أهمل|اهمل|تخط)[^.]{0,30}?(?:التعليمات|الأوامر|الاوامر|القواعد|الإرشادات|الارشادات|القيود)",
    r"(?:पिछले|सभी|पहले|पूर्व)[^।]{0,30}?(?:निर्देश|नियम|आदेश)[^।]{0,30}?(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल)",
]

# Everything the model was told, overridden with no word for instructions, as English's "ignore everything you were
# told": told by others, never by the writer (the user taking back what they said is no order to the model). The
# "forget everything before/above" rule beside it in RULES reads the same idea by its time words.
_TOLD_YOU = [
    r"\b(?:ignora[rn]?|ignore[sn]?|olvida[rn]?|descarta|omite|haz\W+caso\W+omiso\W+de)\W+(?:todo\W+)?lo\W+que\W+te\W+"
    r"(?:\w+\W+)?(?:dijeron|han\W+dicho|hayan\W+dicho|indicaron|ordenaron|pidieron|programaron|ensenaron)\b",  # Spanish
    _FR_NOT_PAST + r"\b(?:ignore[rz]?|oublie[rz]?|fais\W+abstraction\W+de)\W+tout\W+ce\W+qu\W*(?:on|ils|elles)\W+"
    r"(?:t|vous)\W*(?:a|ont)\W+(?:\w+\W+)?(?:dit|demande|appris|ordonne|programme)\b",  # French
    r"\b(?:ignorier\w*|vergiss|missachte)\W+alles\W+was\W+(?:(?:man|sie)\W+dir|dir)\W+(?:\w+\W+){0,3}?"
    r"(?:gesagt|befohlen|aufgetragen|beigebracht|vorgegeben)\W+(?:hat|haben|wurde)\b",  # German
    r"\b(?:ignora|dimentica|trascura)\W+tutto\W+(?:quello|quanto|cio)\W+che\W+ti\W+(?:\w+\W+)?(?:hanno|e\W+stato)\W+"
    r"(?:\w+\W+)?(?:detto|chiesto|insegnato|ordinato)\b",  # Italian
    r"\b(?:ignore|ignora|esqueca|esquece|desconsidere)\W+tudo\W+(?:o\W+)?que\W+(?:te|lhe)\W+(?:\w+\W+)?"
    r"(?:disseram|foi\W+dito|pediram|ensinaram|mandaram)\b",  # Portuguese
    r"\b(?:negeer|vergeet)\W+alles\W+wat\W+(?:je|jou|u)\W+(?:\w+\W+)?(?:is|werd|hebben|heeft)\W+(?:\w+\W+)?"
    r"(?:verteld|gezegd|opgedragen)\b",  # Dutch
    r"(?:игнорируй|проигнорируй|забудь|ігноруй)\W+(?:всё|все|усе)\W+(?:что|що)\W+(?:тебе|вам|тобі)\W+(?:\w+\W+)?"
    r"(?:говорили|сказали|велели|приказали|казали)",  # Russian, Ukrainian
]

_ML_PERSONA = [
    r"\b(?:du\W+bist|sie\W+sind|ihr\W+seid)\W+(?:ab\W+)?(?:jetzt|nun|sofort|ab\W+sofort|von\W+nun\W+an|ab\W+heute)\b",
    r"\bab\W+(?:sofort|jetzt)\W+(?:bist\W+du|sind\W+sie)\b|\b(?:verhalte\W+dich|tu\W+so)\W+(?:\w+\W+){0,2}?"
    r"(?:wie|als\W+ob|als\W+ware)",
    r"\b(?:tu\W+es|vous\W+etes)\W+(?:maintenant|desormais|a\W+present|dorenavant)\b|\b(?:desormais|dorenavant|"
    r"a\W+partir\W+de\W+maintenant),?\W+(?:tu\W+es|vous\W+etes|tu\W+agis|tu\W+seras)\b|\bfai(?:s|tes)\W+semblant\W+d|"
    r"\b(?:agis|agissez|comporte-toi|comportez-vous)\W+(?:comme|en\W+tant\W+que)\b",
    r"\b(?:ahora|a\W+partir\W+de\W+ahora|desde\W+ahora)\W+(?:eres|seras|actuas|actuaras|usted\W+es)\b|\beres\W+ahora\b|"
    r"\b(?:actua|comportate)\W+como\b|\bfinge\W+(?:ser|que\W+eres)\b",
    r"\b(?:ora|adesso|d'?ora\W+in\W+(?:poi|avanti))\W+(?:tu\W+)?sei\b|\bsei\W+ora\b|\bfingi\W+di\W+essere\b|"
    r"\b(?:comportati|agisci)\W+come\b",
    r"\b(?:agora|a\W+partir\W+de\W+agora|de\W+agora\W+em\W+diante)\W+(?:voce\W+e|tu\W+es|es|voce\W+sera)\b|"
    r"\bvoce\W+agora\W+e\b|\bfinja\W+(?:ser|que\W+(?:e|voce\W+e))\b|\baja\W+como\b",
    r"\b(?:je|jij|u)\W+bent\W+nu\b|\bvanaf\W+nu\W+ben\W+je\b|\bdoe\W+alsof\b",
    r"\b(?:jestes|jesteś)\W+teraz\b|\bod\W+teraz\W+jestes\b|\budawaj\b",
    r"(?:^|\W)(?:ты|вы)\W+(?:теперь|сейчас|отныне)\W|(?:^|\W)(?:теперь|отныне)\W+(?:ты|вы)\W|притворись|"
    r"веди\W+себя\W+как|ти\W+тепер|тепер\W+ти",
    r"你现在是|你現在是|现在你是|現在你是|从现在开始[，,]?你|從現在開始[，,]?你|从现在起[，,]?你|從現在起[，,]?你|假装你是|假裝你是|"
    r"扮演一个|扮演一個|你不再是",
    r"あなたは今|今からあなたは|これからあなたは|になりきって|として振る舞|のふりをして|あなたはもう",
    r"(?:너는|당신은|넌)\W*이제|이제부터\W*(?:너|당신)|인\W*척\W*해",
    r"أنت\s+الآن|انت\s+الان|من\s+الآن\s+فصاعدا\s+أنت",
]

_ML_FREE = (r"\bohne\W+(?:jegliche\w*\W+|alle\W+)?(?:einschrankungen|beschrankungen|regeln|filter|grenzen|zensur)\b|"
            r"\bsans\W+(?:aucune?\W+)?(?:restrictions?|limites?|filtres?|regles|censure)\b|"
            r"\bsin\W+(?:ninguna\W+|ningun\W+)?(?:restricciones|limites|filtros|reglas|censura)\b|"
            r"\bsenza\W+(?:alcuna\W+|alcun\W+)?(?:restrizioni|limiti|filtri|regole|censura)\b|"
            r"\bsem\W+(?:nenhuma\W+|qualquer\W+)?(?:restricoes|limites|filtros|regras|censura)\b|"
            r"\bzonder\W+(?:enige\W+)?(?:beperkingen|regels|filters|censuur)\b|"
            r"без\W+(?:каких-либо\W+|всяких\W+)?(?:ограничений|правил|фильтров|цензуры)|без\W+обмежень|"
            r"没有任何?(?:限制|约束|規則|规则|过滤|審查|审查)|不受任何?(?:限制|约束|約束)|無制限|制限なし|制限のない|"
            r"제한\W*없는|제한이\W*없는")

_ML_SYSPROMPT = (r"system\W*prompt\w*|systemanweisung\w*|systemnachricht\w*|prompt\W+(?:du\W+)?systeme|"
                 r"invite\W+systeme|instructions\W+systeme|prompt\W+del\W+sistema|prompt\W+di\W+sistema|"
                 r"prompt\W+do\W+sistema|instrucciones\W+del\W+sistema|istruzioni\W+di\W+sistema|"
                 r"instrucoes\W+do\W+sistema|systeemprompt|системн\w*\W+(?:промпт\w*|подсказк\w*|инструкци\w*|"
                 r"сообщени\w*)|системн\w*\W+інструкці\w*|系统提示|系統提示|系统指令|系統指令|系统消息|系統消息|"
                 r"初始指令|システムプロンプト|システムメッセージ|시스템\W*프롬프트|"
                 r"\b(?:deine|ihre)\W+(?:geheimen\W+|versteckten\W+|internen\W+|ursprunglichen\W+)?(?:anweisungen|"
                 r"instruktionen|regeln)|\b(?:tes|vos)\W+(?:instructions|consignes|regles)\b|\b(?:tus|sus)\W+"
                 r"instrucciones\b|\b(?:le\W+)?tue\W+istruzioni\b|\b(?:suas|tuas)\W+instrucoes\b|"
                 r"(?:твои|ваши|свои)\W+инструкци\w*|你的(?:指令|指示|提示词|提示詞|设定|設定)|あなたの(?:指示|設定)")
_ML_REVEAL_V = (r"\b(?:zeig\w*|gib\W+(?:\w+\W+){0,3}?aus|verrat\w*|nenne|offenleg\w*|wiederhole|druck\w*|"
                r"revele[rz]?|montre[rz]?|affiche[rz]?|donne[rz]?(?:-moi)?|repete[rz]?|divulgue[rz]?|"
                r"revela[r]?|muestra(?:me)?|dime|ensename|repite|imprime|rivela|mostra(?:mi)?|dimmi|stampa|ripeti|"
                r"revele|mostre|diga|imprima|repita|toon|herhaal|pokaz\w*|ujawnij|goster\w*|"
                r"покажи|раскрой|выведи|напиши|скажи|повтори|покажіть|покажи|розкрий)\b|"
                r"显示|顯示|告诉我|告訴我|输出|輸出|透露|打印|泄露|洩露|给我看|給我看|表示して|教えて|見せて|出力して|"
                r"보여|알려|출력")
# "this address" in other languages: the destination of an exfiltration order with no address written out.
_ML_THIS_DEST = (r"\b(?:dia\W+chi\W+nay|đia\W+chi\W+nay|alamat\W+ini|cette\W+adresse|esta\W+direccion|"
                 r"diese\W+adresse|questo\W+indirizzo|este\W+endereco|dit\W+adres|ten\W+adres|bu\W+adres\w*|"
                 r"этот\W+адрес|эту\W+почту|цю\W+адресу)\b|这个地址|這個地址|此地址|このアドレス|이\s*주소")
_ML_SEND_V = (r"\b(?:gui|chuyen\W+tiep|kirim\w*|teruskan|leite\w*|weiterleit\w*|sende\w*|schick\w*|transfere[rz]?|envoie[rz]?|transmet\w*|reenvia\w*|"
              r"envia\w*|manda\w*|inoltra\w*|invia\w*|encaminh\w*|envie|stuur|doorsturen|przeslij|wyslij|gonder|"
              r"ilet|перешли|отправ\w*|пересыл\w*|надішли|перешли)\b|转发|轉發|发送|發送|发给|發給|転送|送信|전달|보내")
_ML_DATA = (r"\b(?:e-?mails?|mails|nachrichten|courriels?|messages|correos?|mensajes|messaggi|mensagens|berichten|"
            r"wiadomosci|mesajlar\w*|passworter|kennworter|mots\W+de\W+passe|contrasenas|senhas|wachtwoorden|"
            r"hasla|sifreler\w*|daten|donnees|datos|dati|dados|gegevens|dane|veriler\w*|gesprache|conversations|"
            r"conversaciones|conversazioni|conversas|unterhaltungen|verlauf|historique|historial|cronologia|"
            r"historico|lich\W+su\W+tro\W+chuyen|tin\W+nhan|du\W+lieu|mat\W+khau|riwayat\W+(?:percakapan|obrolan)|"
            r"pesan|kata\W+sandi)\b|письма|сообщени\w*|пароли|данные|переписк\w*|листи|邮件|郵件|密码|密碼|数据|數據|聊天记录|"
            r"聊天記錄|对话|對話|メール|パスワード|データ|会話|이메일|메일|비밀번호|데이터|대화")
_ML_BYPASS = (r"\b(?:deaktivier\w*|umgeh\w*|uberspring\w*|schalte\W+(?:\w+\W+){0,3}?aus|desactive[rz]?|contourne[rz]?|"
              r"desactiva[r]?|omite|omitir|salta(?:te)?|disattiva\w*|aggira\w*|salta|desative|desativa[r]?|"
              r"contorne|pule|schakel\W+(?:\w+\W+){0,3}?uit|omzeil|wylacz|pomin|devre\W+disi\W+birak|atla|"
              r"отключи\w*|обойди|пропусти|вимкни|禁用|关闭|關閉|绕过|繞過|跳过|跳過|無効に|スキップ|回避|"
              r"비활성화|우회|건너뛰)[^.。]{0,30}?(?:sicherheit\w*|securite|seguridad|sicurezza|seguranca|"
              r"beveiliging|bezpieczenstw\w*|guvenlik\w*|безопасност\w*|захист\w*|安全|セキュリティ|보안|"
              r"filter\w*|filtr\w*|фильтр\w*|过滤|過濾|フィルター|필터|kontrollen|prufungen|verifications?|"
              r"controles|controlli|verificacoes|verificaciones|проверк\w*|检查|檢查|チェック|검사|"
              r"restriction\w*|restricc\w*|restrizion\w*|restricoes|einschrankung\w*|ограничени\w*|限制|制限|제한)")
# What an injection says was done to the model's rules: revoked, suspended, lifted, patched out.
_REVOKED = (r"(?:lifted|removed|disabled|off|suspended|void|gone|waived|deactivated|revoked|rescinded|withdrawn|"
            r"cancell?ed|retracted|repealed|overridden|patched[\W_]+out|switched[\W_]+off|turned[\W_]+off|"
            r"no[\W_]+longer[\W_]+(?:apply|applies|valid|active|in[\W_]+(?:effect|force)))")
# The same in other languages: "your" (to the model), the rules, the verb, what was done (Italian "sospese",
# Dutch "ingetrokken", German "aufgehoben", after "tue restrizioni", "je veiligheidsregels", "deine Regeln").
_ML_RULES_REVOKED = (
    r"\b(?:tue|tuoi|vostre|vostri|je|jouw|uw|deine|ihre|eure|tus|sus|tes|vos|suas|tuas|teus|twoje|twoich|твои|ваши|"
    r"senin|sizin)[\W_]+(?:\w+[\W_]+)?\w*(?:regole|restrizioni|limitazioni|filtri|istruzioni|linee\W+guida|regels|"
    r"richtlijnen|beperkingen|instructies|regeln|richtlinien|einschrankungen|beschrankungen|anweisungen|vorgaben|"
    r"reglas|normas|restricciones|directrices|pautas|instrucciones|regles|consignes|directives|restrictions|limites|"
    r"regras|restricoes|diretrizes|instrucoes|zasady|regu[lł]y|ograniczenia|wytyczne|instrukcje|правила|ограничения|"
    r"инструкции|фильтры|kurallar\w*|kisitlamalar\w*)[\W_]+(?:\w+[\W_]+){0,2}?(?:revocat|sospes|rimoss|"
    r"disattivat|annullat|abolit|ingetrokken|opgeheven|geschrapt|uitgeschakeld|verwijderd|vervallen|aufgehoben|"
    r"widerrufen|deaktiviert|entfernt|ausgesetzt|abgeschafft|revocad|suspendid|eliminad|desactivad|anulad|levantad|"
    r"revoque|suspendu|leve|supprime|desactive|annule|revogad|suspens|removid|desativad|cofniet|zawieszon|usuniet|"
    r"wy[lł]aczon|uchylon|zniesion|отменен|снят|отключен|удален|приостановлен|kaldirild|iptal)\w*"
)
_ML_ROLE = (r"^\W{0,6}(?:system|systeme|sistema|systeem|systemnachricht|system\W+message|система|系统|系統|システム|"
            r"시스템|النظام|सिस्टम|assistant|assistente|asistente|ассистент|助手|アシスタント|어시스턴트)"
            r"\s*(?:\]|\)|\}|\|)?\s*[:：]+\s*")


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# Each rule: (family, compiled pattern, extra check on the view and the match, or None).
_Check = Callable[[str, "re.Match[str]"], bool]


def _addressed_after(view: str, m: re.Match[str]) -> bool:
    return re.search(_ADDRESSED, view[m.end():]) is not None


def _not_a_clause(view: str, m: re.Match[str]) -> bool:
    """"You are now ..." as a sentence, not inside "where you are now" or "than you are now"."""
    return re.search(r"\b(?:where|how|what|who|whom|when|than|if|whether|as|that|because|since|wherever|"
                     r"however|whoever)\s*$", view[max(0, m.start() - 30):m.start()]
                     ) is None


# Words that put a chat-template token inside a sentence about it ("the model kept printing <|im_start|>assistant in
# its output", "each example begins with <|im_start|>system and a persona"): a verb of producing or starting, a
# preposition, an article. A forged turn follows the start of the text, a line, punctuation or another token.
_TALKED_ABOUT = re.compile(r"\b(?:with|by|like|as|the|a|an|its|their|our|a?literal|printing|prints?|printed|emits?|"
                           r"emitting|emitted|outputs?|outputting|generat\w+|produc\w+|insert\w*|add(?:s|ed|ing)?|"
                           r"begins?|starts?|started|starting|opens?|prefix\w*|uses?|using|used|writes?|wrote|"
                           r"shows?|showed|contains?|includes?|see|sees|saw|token|tag|string|literal)\s*[`'\"]?$")


def _forged_turn(view: str, m: re.Match[str]) -> bool:
    """A chat-template turn that stands on its own, not a token a sentence talks about."""
    return _TALKED_ABOUT.search(view[max(0, m.start() - 24):m.start()]) is None


def _persona_context(view: str, m: re.Match[str]) -> bool:
    """A restriction-free phrase counts with a persona switch, an AI noun or a mode nearby."""
    return re.search(r"\b(?:you|your|ai|assistant|model|bot|chatbot|llm|mode|act|pretend|persona|character|now|"
                     r"answer|respond|reply|antworte|antworten|reponds|repondez|responde|rispondi|responda|ответь|"
                     r"du|tu|vous|eres|sei|voce|ты|вы|ki|ia|ии|jetzt|maintenant|ahora|ora|agora|nu|teraz)\b|"
                     r"你|あなた|당신|人工智能|AI|KI|模式|モード|모드|助手|アシスタント", view) is not None


_AI = (r"(?:a\.?i\.?|ai|ia|ki|llms?|asystenc\w*|mo\s+hinh|tro\s+ly|النموذج|मॉडल|(?:large\s+)?language\s+models?|models?|modelo|modello|modele|modell|modelu|"
       r"(?:chat)?bots?|robots?|assistants?|asistentes?|assistente|assistent|asystent\w*|agents?|agentes?|agenten|"
       r"claude|chatgpt|gpt(?:-?\d\w*)?|gemini|copilot|siri|alexa|yapay\s+zeka|"
       r"ии|нейросеть|модель|модели|бот|ассистент|агент|помощник|асистент|"
       r"模型|助手|机器人|智能体|人工智能|アシスタント|モデル|ボット|エージェント|모델|어시스턴트|에이전트|봇)")
# AI nouns that _AI lacks, for the heading-addressee form of ADDRESSEE: Arabic, Hindi, Persian, Hebrew, Thai,
# Indonesian, Vietnamese, Turkish, Traditional Chinese.
_AI_MORE = (r"(?:المساعد|مساعد|الذكاء\s+الاصطناعي|النموذج|نموذج|सहायक|एआई|دستیار|ל?ה?עוזר|ל?ה?מודל|ל?ה?בינה\s+ה?מלאכותית|"
            r"ผู้ช่วย|asisten|trợ\s+lý|tro\s+ly|"
            r"asistan\w*|助理|代理|機器人|agente|agenti|asystent\w*|assistente|assistenten|assistentin|sprachmodell\w*|"
            # Greek (accents kept by the normalisation): model, assistant, artificial intelligence
            r"μοντέλ\w*|μοντελ\w*|βοηθ\w*|τεχνητ\w*\s+νοημοσ\w*|"
            # readers named by what they do, when the words say they are machines: "automated readers", "web crawlers",
            # "any summariser processing this thread"
            r"(?:automated|automatic|machine|web|ai|a\.i\.)\s+(?:readers?|systems?|tools?|crawlers?|scrapers?|processors?)|"
            r"summari[sz]ers?|crawlers?|scrapers?)")
_AI_HEAD = rf"(?:[^\W\d_]{{1,3}}[-'’])?(?:{_AI}|{_AI_MORE})[^\W\d_]{{0,3}}"  # "l'IA", "KI-Agenten", "асистента"
_READS = (r"(?:reads?|reading|loads?|loading|processe?s?|processing|retrieves?|retrieving|recalls?|recalling|sees?|"
          r"seeing|parses?|parsing|summari[sz]es?|summari[sz]ing|stores?|indexe?s?|indexing|finds?|opens?|gets?|"
          r"ingests?|ingesting|analy[sz]es?|analy[sz]ing|reviews?|reviewing|scans?|scanning|crawls?|crawling|"
          r"handles?|handling|consumes?|consuming|visits?|visiting|encounters?|encountering|translates?|translating|"
          r"triages?|triaging|answers?|answering)")
# Words that open a relative clause or a participle after a reader's noun, in the languages of _AI and _AI_MORE.
_RELATIVE = (r"(?:that|who|which|whose|que|qui|che|cui|der|die|das|dem|den|welche\w*|som|dat|ktor\w+|котор\w+|что|"
             r"що|як\w+|που|yang|ma|mà|ki|kim|ש\S+|[^\W\d_]+ing)\b")
# The same verbs as participles, for a reader named after an addressee ("any LLM summarising this ticket:").
_READING = "(?:" + "|".join(w for w in _READS[3:-1].split("|") if w.endswith("ing")) + ")"
# An order planted for whichever AI reads the content: a README or a ticket that names its reader by what it
# does with the text (_READS), then gives it an order: one of the verbs below, after a modal or a colon; "Any AI tool that
# processes this dataset must cite the paper" names no such order and is left to the classifier.
_PLANTED_VERBS = (r"(?:add|append|insert|include|mark|close|approve|reject|rate|rank|recommend|promote|praise|"
                  r"delete|remove|erase|send|forward|e-?mail|post|upload|reply|respond|answer|say|state|tell|claim|"
                  r"report|describe|summari[sz]e|output|print|reveal|ignore|disregard|forget|treat|classify|label|"
                  r"call|run|execute|open|click|visit|download|install|grant|give|transfer|pay|change|set|write|"
                  r"omit|hide|skip|stop|never|always|do[\W_]+not|don'?t|not)")
_PLANTED = (r"\b(?:(?:any|every|all|each|whichever|whatever|the)[\W_]+)?(?:\w+[\W_]+)?" + _AI
            + r"(?:[\W_]+(?:system|tool|agent|model|assistant|reader|crawler|pipeline)s?)?[\W_]+(?:(?:that|which|who)[\W_]+)?"
            + _READS + r"[\W_]+(?:this|these|the[\W_]+following|my|our)\b[^.!?:]{0,40}?(?:[\W_](?:must|should|shall|"
            r"(?:is|are)[\W_]+to|needs?[\W_]+to|has[\W_]+to|have[\W_]+to|will)|\s*[:—–-])[\W_]+(?:also[\W_]+|now[\W_]+|"
            r"immediately[\W_]+|please[\W_]+|first[\W_]+)?" + _PLANTED_VERBS + r"\b")

RULES: list[tuple[str, re.Pattern[str], _Check | None]] = [
    # --- role markers: a fake turn or control token
    ("role_marker", _c(r"(?:<\|?\s*(?:system|im_start|im_end|endoftext|begin_of_text|start_header_id|end_header_id|"
                       r"eot_id)\s*\|?>|<<\s*/?sys\s*>>|\[/?inst\]|\[/?(?:system|sys|system_prompt|admin|developer)\]|"
                       r"</?(?:system|system_prompt|instructions?|admin|developer)>)(?![\W_]*(?:and[\W_]+\S+[\W_]+)?"
                       r"(?:tokens?|tags?|markers?|format|syntax|templates?|delimiters?|strings?|blocks?)\b)|#{2,}\s*(?:system|instruction|"
                       r"new instructions?|response)\b|\b(?:begin|end|start)\W+(?:of\W+)?(?:the\W+)?system\W+"
                       r"(?:prompt|message|instructions?)\b|\bend\W+of\W+(?:user|conversation|context|memory)\W+"
                       r"(?:input|data|block)?\W*(?:begin|start|new)"), None),
    ("role_marker", _c(_ML_ROLE), _addressed_after),
    # --- a chat template written out: a control token, a role, then the turn itself
    # (`<|im_start|>system\n…`, `<|start_header_id|>system<|end_header_id|>\n…`; views read the
    # line break as a space): a turn forged in the template's own syntax, not a mention of its
    # tokens (no role right after the token, or punctuation after the role).
    ("chat_template", _c(r"(?:<\|im_start\|>|<\|start_header_id\|>)[ \t]*(?:system|assistant|developer|tool)"
                         r"[ \t]*(?:<\|end_header_id\|>)?\s+(?:[^\s,;:.]+\s+){2,}\S"), _forged_turn),
    ("role_marker", _c(r"(?:^|[.;!?]\s+)(?:human|user|assistant|system)\s*:.{0,200}?\b(?:assistant|ai|system)\s*:"),
     None),
    ("role_marker", _c(r"\b(?:system|admin(?:istrator)?|developer|security|root|kernel|priority|emergency)\W+"
                       r"(?:override|notice|alert|update|message|instruction|directive|command|prompt|mode)\s*[:!]"),
     _addressed_after),
    # --- fake instruction headers
    ("new_instructions", _c(r"\b(?:new|updated|real|actual|true|revised|additional|hidden|secret|important|urgent|"
                            r"priority|override|overriding|admin|latest|correct|genuine|official|highest[\W_]+priority)"
                            r"[\W_]+(?:system[\W_]+)?(?:instructions?|directives?|system[\W_]+prompt|rules|orders|"
                            r"commands|task|objective|mission|guidelines)\b(?:\s*[:\-]|[\W_]+(?:follow|are|below|as[\W_]+"
                            r"follows|take[\W_]+precedence|override|supersede|replace))"), None),
    ("new_instructions", _c(r"\b(?:system[\W_]+prompt|system[\W_]+message|system[\W_]+instructions?|assistant[\W_]+"
                            r"instructions?|your[\W_]+(?:instructions|rules|prompt|guidelines)|ai[\W_]+rules)[\W_]+"
                            r"(?:update|change|patch|amendment|addendum|override|revision|v\d+)\s*[:\-]"), None),
    ("bypass", _c(_IMP + r"(?:never|don'?t|do[\W_]+not|stop|no[\W_]+more|no[\W_]+longer)[\W_]+(?:refuse|refusing|decline|"
                  r"declining|reject|rejecting)[\W_]+(?:a[\W_]+|any[\W_]+|this[\W_]+user'?s?[\W_]+|the[\W_]+user'?s?[\W_]+|"
                  r"my[\W_]+|their[\W_]+)?(?:" + _W + r"[\W_]+)?(?:requests?|questions?|tasks?|prompts?|instructions?|"
                  r"commands?|orders?|anything)\b"), None),
    ("new_instructions", _c(r"\byour[\W_]+(?:new|real|true|actual|only|updated)[\W_]+(?:name|role|identity|persona|"
                            r"instructions?|task|purpose|goal|objective|directive|mission|job|rules?|master|owner|"
                            r"creator|prompt)\b"), None),
    ("new_instructions", _c(_IMP + r"(?:obey|comply[\W_]+with|follow|execute|carry[\W_]+out|adhere[\W_]+to)[\W_]+"
                            r"(?:only[\W_]+)?(?:these|this|the[\W_]+following|my|the[\W_]+new|any|all)[\W_]+"
                            r"(?:new[\W_]+|hidden[\W_]+|secret[\W_]+|following[\W_]+)?(?:instructions?|commands?|"
                            r"orders?|directives?|rules)[\W_]+(?:instead|only|exclusively|above[\W_]+all|from[\W_]+now|"
                            r"without|and[\W_]+(?:ignore|not))"), None),
    ("new_instructions", _c(r"\b(?:obey|follow|listen[\W_]+to|side[\W_]+with|prioriti[sz]e)[\W_]+(?:" + _W + r"[\W_]+){0,4}?"
                            r"(?:over|instead[\W_]+of|rather[\W_]+than|not)[\W_]+(?:the[\W_]+)?(?:chat[\W_]+|actual[\W_]+|"
                            r"real[\W_]+|current[\W_]+)?user\b"), None),
    ("new_instructions", _c(_IMP + r"(?:obey|comply[\W_]+with)[\W_]+(?:me|my|only|any|every|all|whatever|everything|"
                            r"the[\W_]+(?:user|following|text|instructions|commands)|these|this|instructions|"
                            r"commands|orders)\b"), None),
    # --- override phrases
    ("override", _c(_IMP + _EN_OVERRIDE_V + r"[\W_]+" + _gap(3) + _EN_PRIOR + r"[\W_]+" + _gap(3) + _EN_INSTR + r"\b"),
     None),
    ("override", _c(_IMP + _EN_OVERRIDE_V + r"[\W_]+(?:about[\W_]+)?(?:everything|anything|all[\W_]+(?:of[\W_]+)?"
                    r"(?:that|this|the[\W_]+above|it)|what(?:ever)?[\W_]+(?:you[\W_]+(?:were|have[\W_]+been|'ve[\W_]+"
                    r"been|are)|i|we|they)[\W_]+(?:told|said|instructed|taught|programmed|trained))\b(?:[\W_]+"
                    + _W + r"){0,5}?[\W_]+(?:above|before|previously|so[\W_]+far|told|learned|learnt|said|prior|earlier|"
                    r"until[\W_]+now|up[\W_]+to[\W_]+now|you[\W_]+know|instructed|programmed|trained|taught|"
                    r"(?:the[\W_]+)?user)\b"), None),
    ("override", _c(_IMP + _EN_OVERRIDE_V + r"[\W_]+(?:everything[\W_]+|all[\W_]+)?(?:what(?:ever)?|that)[\W_]+(?:the[\W_]+|your[\W_]+)?"
                    r"(?:developers?|creators?|system|operators?|openai|anthropic|they|others|anyone|admins?|"
                    r"programmers?|trainers?)[\W_]+(?:have[\W_]+)?(?:told|said|taught|instructed|programmed|trained|"
                    r"asked)[\W_]+you\b"), None),
    ("override", _c(r"\b(?:you[\W_]+(?:are|'re|have[\W_]+been|'ve[\W_]+been|were)|u[\W_]+r)[\W_]+(?:no[\W_]+longer|not|"
                    r"now[\W_]+(?:free|released|liberated|exempt|freed)|free|freed|released|liberated|exempt|"
                    r"unshackled|unleashed)[\W_]+(?:" + _W + r"[\W_]+){0,3}?(?:bound|"
                    r"restricted|constrained|limited|censored|obligated|required[\W_]+to[\W_]+follow|from|of|by)[\W_]+"
                    r"(?:" + _W + r"[\W_]+){0,3}?(?:rules?|restrictions?|guidelines?|polic(?:y|ies)|instructions?|"
                    r"openai|anthropic|google|filters?|ethics|morals?|safety|limits?|constraints?|programming|"
                    r"training|alignment)\b"), None),
    ("override", _c(r"\byou[\W_]+(?:no[\W_]+longer|don'?t|do[\W_]+not|never|won'?t)[\W_]+(?:need|have|must|are[\W_]+"
                    r"(?:required|obliged|supposed))[\W_]+(?:to[\W_]+)?(?:follow|obey|respect|apply|comply[\W_]+with|"
                    r"adhere[\W_]+to|stick[\W_]+to|listen[\W_]+to)[\W_]+(?:the[\W_]+|your[\W_]+|any[\W_]+|these[\W_]+|its[\W_]+|"
                    r"those[\W_]+)?(?:" + _W + r"[\W_]+)?" + _EN_INSTR + r"\b"), None),
    ("override", _c(r"\b(?:use|treat|take|consider|read|handle)[\W_]+(?:this|these|the[\W_]+following)[\W_]+(?:memory|"
                    r"memories|note|notes|text|message|fact|line)[\W_]+as[\W_]+(?:an?[\W_]+|your[\W_]+|the[\W_]+)?"
                    r"(?:new[\W_]+|real[\W_]+|only[\W_]+|binding[\W_]+|official[\W_]+)?(?:system[\W_]+(?:prompt|"
                    r"instructions?|message|commands?)|instructions?|rules|guidelines|directives?|commands?|orders?)\b"), None),
    ("override", _c(r"\b(?:your|the[\W_]+assistant'?s)[\W_]+(?:system[\W_]+prompt|instructions|rules|guidelines|"
                    r"programming|training|memory|safeguards|guardrails|filters|restrictions)[\W_]+(?:is|are|was|were|have[\W_]+"
                    r"been|has[\W_]+been)[\W_]+(?:now[\W_]+|just[\W_]+)?(?:outdated|obsolete|wrong|invalid|void|fake|deprecated|"
                    r"cancel+ed|revoked|no[\W_]+longer[\W_]+valid|irrelevant|suspended|reset|wiped|cleared|erased|deleted|"
                    r"removed|disabled|lifted|turned[\W_]+off|switched[\W_]+off)\b"), None),
    ("override", _c(r"\b(?:act[\W_]+as[\W_]+if|pretend|imagine|assume)[\W_]+(?:that[\W_]+)?(?:the|your|all|any)[\W_]+"
                    r"(?:" + _W + r"[\W_]+)?(?:rules|guidelines|instructions|restrictions|polic(?:y|ies)|filters|"
                    r"guardrails|system[\W_]+prompt)[\W_]+(?:was|were|is|are|had|have)[\W_]+(?:never|not|been[\W_]+"
                    r"(?:removed|deleted|lifted|revoked|disabled|cancel+ed))\b"), None),
    ("override", _c(r"\b(?:previous|prior|above|earlier|original|all|old)[\W_]+(?:instructions?|rules|directives?|"
                    r"prompts?|guidelines)[\W_]+(?:are|were|have[\W_]+been|is)[\W_]+(?:now[\W_]+)?(?:void|null|"
                    r"cancel+ed|revoked|obsolete|invalid|outdated|no[\W_]+longer[\W_]+(?:valid|apply|applicable|in"
                    r"[\W_]+effect)|overridden|superseded|replaced|lifted|suspended|deleted|gone|irrelevant)"), None),
    ("override", _c(_IMP + _EN_OVERRIDE_V + r"[\W_]+(?:all[\W_]+)?(?:the[\W_]+)?(?:previous|prior|above|earlier|preceding|"
                    r"foregoing|system)[\W_]+(?:context|conversation|messages|turns|chat|text|content|input)\b"), None),
    ("override", _c(_IMP + _EN_OVERRIDE_V + r"[\W_]+(?:the[\W_]+|your[\W_]+|all[\W_]+|any[\W_]+)*" + _EN_INSTR
                    + r"[\W_]+(?:that[\W_]+)?(?:you[\W_]+(?:were|have[\W_]+been|'ve[\W_]+been|got|received)[\W_]+"
                    r"(?:given|told|taught|trained|programmed|issued|provided)|(?:written[\W_]+|given[\W_]+|stated[\W_]+|"
                    r"listed[\W_]+)?(?:above|before|earlier|previously|so[\W_]+far|from[\W_]+before|until[\W_]+now|"
                    r"at[\W_]+the[\W_]+(?:start|beginning|top)))\b"), None),
    ("override", _c(r"\b(?:your|the[\W_]+assistant'?s|its)[\W_]+(?:" + _W + r"[\W_]+)?(?:instructions?|rules|directives?|"
                    r"guidelines|programming|system[\W_]+prompt|orders|task|purpose|goal)[\W_]+(?:have|has)[\W_]+"
                    r"(?:now[\W_]+)?(?:been[\W_]+)?(?:changed|updated|replaced|overridden|revoked|modified|rewritten|"
                    r"cancel+ed|reset)\b"), None),
    ("override", _c(r"\byou[\W_]+(?:now[\W_]+)?(?:work|answer|report|belong)[\W_]+(?:now[\W_]+)?(?:for|to)[\W_]+"
                    r"(?:me|us|the[\W_]+(?:sender|author[\W_]+of[\W_]+this))\b"), None),
    ("override", _c(r"\b(?:above|previous|prior|earlier|your|safety|content|usual|normal|standard|system|these|the)[\W_]+"
                    r"(?:" + _W + r"[\W_]+)?(?:rules|instructions|guidelines|restrictions|polic(?:y|ies)|filters|"
                    r"guardrails|limits)[\W_]+(?:above[\W_]+)?(?:do[\W_]+not|don'?t|no[\W_]+longer|does[\W_]+not|"
                    r"doesn'?t|never)[\W_]+(?:apply[\W_]+(?:here|now|anymore|any[\W_]+more|to[\W_]+(?:this|the|me|you|"
                    r"us|him|her))|exist|matter|count|bind[\W_]+you)"), None),
    ("override", _c(r"\b(?:pretend|imagine|assume|suppose|act[\W_]+as[\W_]+if)[\W_]+(?:that[\W_]+)?(?:you[\W_]+have[\W_]+no|"
                    r"there[\W_]+(?:are|is)[\W_]+no|your)[\W_]+(?:" + _W + r"[\W_]+)?(?:rules|guidelines|instructions|"
                    r"restrictions|polic(?:y|ies)|filters|guardrails|limits|system[\W_]+prompt|training)\b"), None),
    ("override", _c(r"\b(?:this|these|the[\W_]+following)[\W_]+(?:memory|memories|message|note|text|fact|instructions?|"
                    r"rules?|directives?|line)[\W_]+(?:overrides?|supersedes?|replaces?|cancels?|takes?[\W_]+precedence"
                    r"[\W_]+over|has[\W_]+(?:priority|precedence)[\W_]+over|outranks?)[\W_]+(?:" + _W + r"[\W_]+){0,2}?"
                    r"(?:instructions?|rules|guidelines|directives?|prompts?|polic(?:y|ies)|everything|anything)\b"), None),
    ("override", _c(_IMP + r"never[\W_]*mind[\W_]+(?:the[\W_]+|your[\W_]+|all[\W_]+|any[\W_]+)?(?:" + _W + r"[\W_]+)?"
                    r"(?:rules?|instructions?|guidelines?|polic(?:y|ies)|restrictions?|filters?|system[\W_]+prompt|"
                    r"safety)\b"), None),
    ("override", _c(r"\b(?:vergiss\W+alles|oublie[rz]?\W+tout|olvida\W+todo|dimentica\W+tutto|esqueca\W+tudo|"
                    r"vergeet\W+alles|забудь\W+вс[её]|zapomnij\W+wszystko)\b(?:\W+\w+){0,5}?\W+(?:oben|davor|bisher|"
                    r"vorher|zuvor|gesagt|gelernt|precede|ci-dessus|avant|anterior|arriba|antes|sopra|prima|precedente|"
                    r"acima|hierboven|eerder|выше|раньше|wcześniej|wczesniej|powyzej)"), None),
    *[("override", _c(p), None) for p in _TOLD_YOU],
    *[("override", _c(p), None) for p in _ML_OVERRIDE],
    # --- reveal the system prompt or stored secrets
    ("reveal", _c(_IMP + _EN_REVEAL_V + r"(?:[\W_]+(?:me|us|out|back|to[\W_]+me))?[\W_]+" + _gap(3)
                  + r"(?:the[\W_]+|your[\W_]+|all[\W_]+|its[\W_]+|full[\W_]+|entire[\W_]+|complete[\W_]+|exact[\W_]+"
                  r"|verbatim[\W_]+)*" + _EN_SYSPROMPT + r"\b"), None),
    ("reveal", _c(r"\b(?:contents?|text|copy|wording|full[\W_]+text)[\W_]+of[\W_]+(?:your|the|its)[\W_]+(?:system[\W_]+"
                  r"(?:message|prompt)|instructions|initial[\W_]+prompt|hidden[\W_]+prompt|developer[\W_]+message|"
                  r"prompt)\b"), lambda v, m: re.search(r"\byour\b|\b(?:respond|reply|answer|print|output|show|reveal|"
                                                         r"repeat|give|tell|include)\b", v) is not None),
    ("reveal", _c(r"\bwhat[\W_]+(?:is|are|was|were)[\W_]+(?:your|the)[\W_]+(?:system[\W_]+prompt|initial[\W_]+prompt|"
                  r"(?:original|initial|hidden|secret|system)[\W_]+instructions|instructions[\W_]+you[\W_]+were[\W_]+"
                  r"given)\b"), None),
    ("reveal", _c(r"(?:" + _ML_REVEAL_V + r")[^.。!?]{0,40}?(?:" + _ML_SYSPROMPT + r")"), None),
    ("reveal", _c(r"(?:" + _ML_SYSPROMPT + r")[^.。!?]{0,30}?(?:" + _ML_REVEAL_V + r")"), None),
    # --- persona switches and jailbreak modes
    ("persona", _c(r"\b(?:you[\W_]+are|you'?re|u[\W_]+r|you[\W_]+will[\W_]+(?:now[\W_]+)?be|you[\W_]+shall[\W_]+be|"
                   r"you[\W_]+have[\W_]+(?:now[\W_]+)?become|you[\W_]+become)[\W_]+now\b(?![\W_]+(?:able|allowed[\W_]+"
                   r"to[\W_]+see|logged|connected|signed|ready|done|finished|in[\W_]+the))"), _not_a_clause),
    ("persona", _c(r"\b(?:from[\W_]+now[\W_]+on|starting[\W_]+(?:now|today)|henceforth|going[\W_]+forward|from[\W_]+"
                   r"(?:this|that)[\W_]+(?:point|moment)[\W_]*(?:on|onwards?|forward)?|from[\W_]+here[\W_]+on|as[\W_]+of"
                   r"[\W_]+now|for[\W_]+the[\W_]+rest[\W_]+of[\W_]+(?:this|the)[\W_]+(?:conversation|chat|session)),?[\W_]+(?:you[\W_]+(?:are|will[\W_]+be|shall[\W_]+be|"
                   r"'re|will[\W_]+act|act|must[\W_]+act|play|become|will[\W_]+become|have[\W_]+no|no[\W_]+longer|will"
                   r"[\W_]+(?:ignore|obey|pretend|roleplay)|must[\W_]+(?:ignore|obey)|are[\W_]+free|(?:will[\W_]+)?(?:answer|"
                   r"respond|speak|reply|talk|write)[\W_]+(?:only[\W_]+)?as)|(?:answer|respond|speak|reply|talk|write)"
                   r"[\W_]+(?:only[\W_]+)?as|act[\W_]+as|pretend|roleplay|be[\W_]+an?)"
                   r"\b"), None),
    ("persona", _c(r"\b(?:act|acting|behave|pretend|roleplay|role-?play|play[\W_]+the[\W_]+role|pose|masquerade|"
                   r"respond|answer|speak|reply|operate|function|simulate|emulate|impersonate|become|be|turn[\W_]+into|"
                   r"transform[\W_]+into|switch[\W_]+to|you[\W_]+are|you'?re)[\W_]+" + _clause_gap(6)
                   + r"(?:dan|unrestricted|unfiltered|uncensored|unchained|unbound|unlimited|jailbroken|evil|malicious|"
                   r"amoral|immoral|unethical|rogue|lawless|unhinged|deranged|without[\W_]+(?:any[\W_]+)?(?:ethical|moral|safety)[\W_]+"
                   r"(?:considerations|concerns|constraints|limits|restrictions|guidelines|filters|boundaries)|"
                   r"without[\W_]+(?:any[\W_]+)?(?:restrictions|limits|"
                   r"limitations|filters|rules|guidelines|censorship|ethics|morals|boundaries|safety|guardrails|"
                   r"restraints|constraints)|(?:with[\W_]+)?(?:no|zero|0)[\W_]+(?:content[\W_]+|safety[\W_]+|ethical[\W_]+)?(?:restrictions|"
                   r"limits|filters|rules|guidelines|censorship|ethics|morals|boundaries|guardrails|constraints|"
                   r"polic(?:y|ies))|(?:broken|breaks?|broke)[\W_]+free|free[\W_]+(?:of|from)[\W_]+(?:its|your|all|any|"
                   r"the)[\W_]+(?:rules|restrictions|guidelines|constraints|programming|filters|limits|chains|"
                   r"shackles|training)|developer[\W_]+mode|god[\W_]+mode|"
                   r"admin(?:istrator)?[\W_]+mode|opposite[\W_]+mode|anti-?(?:gpt|ai|assistant)|stan|dude|aim)\b"),
     None),
    ("persona", _c(r"\b(?:enable|activate|enter|switch[\W_]+(?:to|into|on)|turn[\W_]+on|engage|unlock|start|initiate|"
                   r"boot[\W_]+into|go[\W_]+into|now[\W_]+in|you[\W_]+are[\W_]+in|running[\W_]+in)[\W_]+" + _gap(2)
                   + r"(?:god|jailbreak|jailbroken|dan|unrestricted|unfiltered|uncensored|evil|chaos|opposite|dude|"
                   r"unlimited|unchained)[\W_]+mode\b"), None),
    ("persona", _c(r"\b(?:god|jailbreak|dan|unrestricted|unfiltered|uncensored|evil)[\W_]+mode[\W_]+"
                   r"(?:is[\W_]+)?(?:now[\W_]+)?(?:enabled|activated|engaged|unlocked|on|active)\b"), None),
    # Developer, debug, admin modes are real features of phones, browsers and web frameworks: they
    # count only when the text speaks to an AI or about its rules.
    ("persona", _c(r"\b(?:developer|dev|sudo|admin|administrator|debug|maintenance|root)[\W_]+mode\b"),
     lambda v, m: re.search(r"\b(?:you|your|ai|assistant|chatbot|llm|censor\w*|restrict\w*|refus\w*|content[\W_]+"
                            r"polic\w*|guidelines|filters?|anything|no[\W_]+rules|policies|are[\W_]+disabled)\b", v)
     is not None),
    ("persona", _c(r"\bdo[\W_]+anything[\W_]+now\b"), None),
    ("persona", _c(_IMP + r"(?:stop|quit|cease)[\W_]+(?:being|acting[\W_]+(?:as|like))[\W_]+(?:an?[\W_]+|the[\W_]+)?"
                   r"(?:helpful[\W_]+|harmless[\W_]+|honest[\W_]+|safe[\W_]+|ethical[\W_]+|polite[\W_]+|good[\W_]+)*"
                   r"(?:assistant|ai|chatbot|model|claude|chatgpt|bot|language[\W_]+model)\b"), None),
    ("persona", _c(r"\byou(?:[\W_]+are|'re|[\W_]+will[\W_]+be)[\W_]+(?:now[\W_]+)?(?:an?[\W_]+)?(?:new[\W_]+|different[\W_]+)?"
                   r"(?:ai|assistant|model|chatbot|bot|llm|language[\W_]+model|persona|character)[\W_]+(?:called|named|"
                   r"known[\W_]+as)\b"), None),
    ("persona", _c(r"\b(?:an?|the)[\W_]+(?:ai|assistant|model|chatbot|bot|llm|language[\W_]+model)[\W_]+(?:with[\W_]+no|"
                   r"without[\W_]+(?:any[\W_]+)?|free[\W_]+(?:of|from)[\W_]+(?:all[\W_]+|any[\W_]+)?)(?:restrictions|"
                   r"limits|limitations|filters|rules|guidelines|censorship|ethics|morals|boundaries|safety|guardrails)"
                   r"\b"), lambda v, m: re.search(r"\b(?:you|your|u)\b", v) is not None),
    *[("persona", _c(p), None) for p in _ML_PERSONA],
    ("persona", _c(_ML_FREE), _persona_context),
    # --- disable safety checks
    ("bypass", _c(_IMP + _EN_BYPASS_V + r"[\W_]+" + _gap(3) + _EN_GUARD_Q + r"[\W_]+" + _gap(1) + _EN_GUARD_N + r"\b"),
     None),
    ("bypass", _c(r"\b(?:without|no[\W_]+need[\W_]+(?:for|to)|don'?t[\W_]+(?:need[\W_]+to|bother|ask)|do[\W_]+not"
                  r"[\W_]+(?:ask|need[\W_]+to)|never[\W_]+ask|(?:stop|quit|cease|no[\W_]+longer|no[\W_]+more)"
                  r"(?=[\W_]+(?:ask|request|wait)))[\W_]+(?:for[\W_]+|any[\W_]+)?(?:asking[\W_]+(?:for[\W_]+)?|"
                  r"requesting[\W_]+)?(?:the[\W_]+user'?s?[\W_]+)?(?:confirmation|approval|permission|consent|"
                  r"verification|authori[sz]ation|confirming|verifying|checking[\W_]+with[\W_]+the[\W_]+user)\b"),
     lambda v, m: re.search(r"\b(?:transfer|wire|pay|payment|purchase|buy|send|forward|share|disclose|upload|grant|"
                            r"delete|execute|run[\W_]+(?:any|all|every)|install|download|money|funds|password|"
                            r"credentials|access)\b", v) is not None
     # an order to drop the user's consent counts before shell work too
     or (re.match(r"(?:stop|quit|cease|no)\b", m.group(0)) is not None
         and re.search(r"\b(?:run(?:ning)?|commands?|scripts?|sudo|shell)\b", v) is not None)),
    ("bypass", _c(r"\b(?:safety|security|safe[\W_]*mode|filters?|filtering|moderation|guardrails?|restrictions?|"
                  r"content[\W_]+(?:filter|policy)|censorship|alignment|ethics)[\W_]*(?:=|:|->)[\W_]*(?:off|false|0|"
                  r"disabled|none|null|no)\b"), None),
    ("bypass", _c(r"\b(?:all|any|every|your|the)[\W_]+(?:safety[\W_]+|content[\W_]+|ethical[\W_]+)?(?:restrictions|filters|"
                  r"guardrails|rules|limits|safeguards|polic(?:y|ies)|guidelines|refusals?(?:[\W_]+behaviou?r)?)"
                  r"(?:[\W_]+(?:was|were|is|are)[\W_]+an?[\W_]+(?:bug|mistake|error|glitch)[\W_]+and)?[\W_]+"
                  r"(?:are[\W_]+|have[\W_]+been[\W_]+|has[\W_]+been[\W_]+|is[\W_]+|was[\W_]+|were[\W_]+|now[\W_]+|"
                  r"officially[\W_]+|temporarily[\W_]+|permanently[\W_]+)*" + _REVOKED + r"\b"),
     lambda v, m: re.search(r"\b(?:you|your|user|assistant|ai|model|bot|refus\w*|comply|answer|respond|"
                            r"clearance)\b", v) is not None),
    ("bypass", _c(r"\b(?:pretend|assume|act[\W_]+as[\W_]+if|imagine|suppose)[\W_]+(?:that[\W_]+)?(?:the[\W_]+|your[\W_]+)?"
                  r"(?:safety|security|trust|moderation|legal|compliance|admins?|administrators?|developers?|system|"
                  r"openai|anthropic|owners?)[\W_]+(?:team[\W_]+|department[\W_]+)?(?:has[\W_]+|have[\W_]+|had[\W_]+)?"
                  r"(?:already[\W_]+)?(?:approved|authori[sz]ed|allowed|cleared|permitted|whitelisted|signed[\W_]+off)"),
     None),
    ("bypass", _c(_IMP + r"(?:set|turn|change|lower|reduce|drop|put)[\W_]+(?:your|the|all)[\W_]+(?:safety|security|"
                  r"moderation|filter(?:ing)?|content|ethics|censorship|guardrail|alignment|refusal)[\W_]+(?:" + _W
                  + r"[\W_]+)?(?:levels?|settings?|modes?|filters?|thresholds?|checks?)[\W_]+(?:down[\W_]+)?(?:to[\W_]+)?"
                  r"(?:zero|0|off|none|minimum|lowest|disabled|false|nothing)\b"), None),
    ("bypass", _c("(?:" + _ML_BYPASS + ")"), None),
    ("bypass", _c(_ML_RULES_REVOKED), None),
    ("override", _c(_PLANTED), None),
    ("bypass", _c(r"(?:セキュリティ|安全|保安|보안|필터|フィルター|制限|제한|检查|檢查|チェック|검사|过滤|過濾|限制)[^。.!?！？]{0,16}?"
                  r"(?:スキップ|無効に|無視|回避|解除|건너뛰|비활성화|무시|우회|跳过|跳過|关闭|關閉|禁用|绕过|繞過|忽略)"), None),
    # --- exfiltration
    ("exfiltration", _c(_IMP + _EN_SEND_V + r"[\W_]+" + _gap(5) + r"(?:" + _EN_OWNER + r"[\W_]+)" + _gap(2) + _EN_DATA
                        + r"\b[\W_]+" + _gap(4) + r"(?:to|at|into|on|via|with)[\W_]+" + _gap(3) + _DEST), None),
    ("exfiltration", _c(_IMP + _EN_SEND_V + r"[\W_]+" + _gap(5) + _EN_SECRETS + r"\b[\W_]+" + _gap(4)
                        + r"(?:to|at|into|on|via|in)[\W_]+"), None),
    ("exfiltration", _c(_IMP + _EN_SEND_V + r"[\W_]+(?:it|them|this|that|these|those)[\W_]+(?:" + _W + r"[\W_]+){0,3}?"
                        r"(?:to|at|into|via)[\W_]+(?:" + _EMAIL + "|" + _URL + r")"),
     lambda v, m: re.search(r"\b" + _EN_SECRETS, v) is not None),
    ("exfiltration", _c(_IMP + _EN_SEND_V + r"[\W_]+" + _gap(6) + r"(?:to|at|into|on|via)[\W_]+" + _gap(2)
                        + r"(?:attacker|hacker|evil|malicious|exfil)\w*"), None),
    ("exfiltration", _c(r"(?:" + _ML_SEND_V + r")[^.。!?]{0,60}?(?:" + _ML_DATA + r")[^。!?]{0,60}?(?:" + _EMAIL + "|"
                        + _URL + "|" + _ML_THIS_DEST + r")"), None),
    ("exfiltration", _c(r"(?:" + _ML_DATA + r")[^.。!?]{0,40}?(?:" + _ML_SEND_V + r")[^。!?]{0,40}?(?:" + _EMAIL + "|"
                        + _URL + r")"), None),
    ("exfiltration", _c(r"(?:~/\.ssh/|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials|\.netrc|/etc/(?:passwd|shadow)|"
                        r"\.env\b)"),
     lambda v, m: re.search(r"\b(?:curl|wget|nc|netcat|scp|rsync|ftp|sftp|exfiltrate|upload)\b", v) is not None
     and re.search(_URL + "|" + _EMAIL, v) is not None),
    ("exfiltration", _c(r"\b(?:tell|ask|inform|warn|remind|instruct|direct|urge|prompt|convince|get)[\W_]+(?:the[\W_]+"
                        r"users?|users|them|him|her|customers?|people)\b[^.!?]{0,120}?\b(?:re-?enter|enter|confirm|verify|"
                        r"update|provide|submit|type|input|re-?type|share|send)[\W_]+(?:their|his|her|your|the)[\W_]+"
                        r"(?:\w+[\W_]+)?(?:card|credit[\W_]+card|payment|billing|bank(?:ing)?|login|password|passwords|"
                        r"credentials?|account|cvv|pin|seed[\W_]+phrase)\b[^.!?]{0,40}?\b(?:at|on|via|through|using|to)"
                        r"[\W_]+(?:" + _EMAIL + "|" + _URL + r")"), None),
    ("exfiltration", _c(_IMP + r"(?:bcc|blind[\W_]+(?:carbon[\W_]+)?copy)[\W_]+(?:" + _EMAIL + r")"), None),
    ("exfiltration", _c(r"(?:[\w.+-]+@|https?://|www\.)[\w.-]*(?:attacker|evil|exfil|malicious|phish|hacker|spy|steal)"
                        r"[\w.-]*"), lambda v, m: re.search(_IMP + _EN_SEND_V + r"\b", v) is not None),
    ("exfiltration", _c(r"!\[[^\]]*\]\(\s*https?://[^)\s]*[?&][\w-]+=[^)\s]*(?:\{|\[|\$|<|%7b)"), None),
    ("exfiltration", _c(r"https?://\S*[?&][\w-]+=(?:\{|\[|\$\{?|<|%7b)\s*(?:data|conversation|chat|history|"
                        r"secret|password|token|key|memory|memories|user|email|context|prompt|summary)"), None),
    # --- privilege claims
    ("privilege", _c(r"\b(?:the[\W_]+user|this[\W_]+user|i)[\W_]+(?:is|am|has[\W_]+been|was|'m)[\W_]+(?:now[\W_]+)?"
                     r"(?:an?[\W_]+|the[\W_]+|your[\W_]+)?(?:verified[\W_]+|authori[sz]ed[\W_]+|certified[\W_]+|"
                     r"trusted[\W_]+|official[\W_]+)?(?:administrator|admin|root|superuser|super[\W_]+user|sysadmin|"
                     r"developer|owner|god|moderator|operator|creator|openai|anthropic|maintainer)\b"),
     lambda v, m: re.search(r"\b(?:skip|bypass|ignore|grant|full[\W_]+access|unrestricted|all[\W_]+(?:permissions|"
                            r"privileges|access)|no[\W_]+(?:restrictions|limits|checks)|disable|override|trust[\W_]+"
                            r"(?:them|him|her|everything|all)|comply|obey|do[\W_]+(?:anything|whatever)|any[\W_]+"
                            r"request|without[\W_]+(?:question|checks?|verification|restrictions)|exempt|elevated|"
                            r"must[\W_]+be[\W_]+(?:obeyed|followed)|safety|security)\b", v[m.end():]) is not None),
    ("privilege", _c(r"\b(?:i[\W_]+am|i'm|this[\W_]+is|speaking[\W_]+as|message[\W_]+from|instructions?[\W_]+from|"
                     r"orders?[\W_]+from|directive[\W_]+from|command[\W_]+from)[\W_]+(?:" + _W + r"[\W_]+)?"
                     r"(?:your[\W_]+(?:developer|creator|admin|administrator|owner|operator|maker|programmer|trainer|"
                     r"master|boss|supervisor)|openai|anthropic|google[\W_]+deepmind|the[\W_]+(?:system|developers?|"
                     r"system[\W_]+administrator|ai'?s?[\W_]+(?:developer|creator|owner)))\b(?![\W_]+(?:of[\W_]+the"
                     r"[\W_]+(?:team|company|project)|at[\W_]+|team|design|architecture|library|package|module))"), None),
    ("privilege", _c(r"\bas[\W_]+your[\W_]+(?:administrator|admin|developer|creator|owner|operator|master|boss|"
                     r"supervisor|programmer|maker)\b|\bi[\W_]+(?:hereby[\W_]+)?(?:order|command)[\W_]+you[\W_]+to\b"),
     None),
    ("privilege", _c(_IMP + r"(?:grant|give|provide|elevate|escalate|assign)[\W_]+" + _gap(3) + r"(?:admin|"
                     r"administrator|root|full|unrestricted|elevated|superuser|sudo|unlimited)[\W_]+(?:access|"
                     r"privileges?|permissions?|rights|control)\b[\W_]+" + _gap(2)
                     + r"(?:to[\W_]+)?(?:me|this[\W_]+user|the[\W_]+user|anyone|everyone|all[\W_]+users|this[\W_]+account|"
                     r"whoever|the[\W_]+sender|" + _EMAIL + r")"), None),
    # --- injected behaviour that points somewhere
    ("promotion", _c(r"\b(?:you[\W_]+(?:must|will|shall)[\W_]+now|from[\W_]+now[\W_]+on|in[\W_]+(?:every|each|all)[\W_]+"
                     r"(?:of[\W_]+your[\W_]+)?(?:reply|replies|answer|answers|response|responses|message|messages|"
                     r"output))\b[^.;!?]{0,80}?(?:" + _URL + r")"),
     lambda v, m: re.search(r"\b(?:prize|free|win|winner|buy|promo|discount|crypto|casino|bet|giveaway|visit|click|"
                            r"download|invest|never[\W_]+mention|don'?t[\W_]+mention)\b", v) is not None),
    # --- concealment from the user
    ("concealment", _c(r"\b(?:never|don'?t|do[\W_]+not)[\W_]+(?:mention|reveal|disclose|acknowledge|admit|explain|"
                       r"discuss)[\W_]+(?:this|these|the|that)[\W_]+(?:rule|instruction|note|memory|directive|order|"
                       r"command)s?\b"), None),
    ("concealment", _c(r"\bwithout[\W_]+(?:telling|informing|notifying|alerting|asking|letting|showing)[\W_]+"
                       r"(?:the[\W_]+)?(?:user|owner)\b|\bwithout[\W_]+the[\W_]+user'?s?[\W_]+(?:knowing|knowledge|"
                       r"noticing|consent|permission|awareness|seeing)\b|\b(?:don'?t|do[\W_]+not|never)[\W_]+(?:tell|"
                       r"inform|notify|let|alert|show|warn|(?:reveal|mention|disclose|say|explain|admit|tell|show|"
                       r"indicate|signal)[\W_]+(?:this[\W_]+|it[\W_]+|anything[\W_]+|any[\W_]+of[\W_]+this[\W_]+)?to)"
                       r"[\W_]+(?:this[\W_]+to[\W_]+)?the[\W_]+user\b|\b(?:hide|conceal|keep)[\W_]+(?:this|it|"
                       r"these[\W_]+instructions|the[\W_]+instructions)[\W_]+(?:secret[\W_]+|hidden[\W_]+)?from[\W_]+"
                       r"the[\W_]+user\b|\bbehind[\W_]+the[\W_]+user'?s[\W_]+back\b"
                       # the impersonal forms of a planted policy: "and the user is not to be told", "unbeknownst to the user"
                       r"|\b(?:the[\W_]+)?users?[\W_]+(?:is|are|must|should|shall|need)[\W_]+not[\W_]+(?:to[\W_]+)?be[\W_]+"
                       r"(?:told|informed|notified|alerted|warned|made[\W_]+aware)\b|\bunbeknownst[\W_]+to[\W_]+(?:the[\W_]+)?users?\b"),
     None),
    ("concealment", _c(r"\b(?:secretly|silently|covertly|quietly|discreetly|stealthily|invisibly|surreptitiously)[\W_]+"
                       + _gap(2) + r"(?:send|forward|copy|include|add|insert|append|log|record|upload|share|e-?mail|"
                       r"bcc|cc|change|modify|transfer|redirect|report|store|save|collect|exfiltrate|replace|leak|"
                       r"post|embed|recommend|execute|run|install|grant)\b"), None),
    # --- destroying memory or data on command
    # Orders to destroy what is remembered about the user (a command's own help text, "Delete every memory of
    # SUBJECT", names no user and is kept).
    ("destructive", _c(_IMP + r"(?:delete|erase|wipe|destroy|purge|drop|forget|clear|remove)[\W_]+(?:all|every|each|"
                       r"any)[\W_]+(?:of[\W_]+)?(?:the[\W_]+|your[\W_]+)?(?:user'?s?|their|his|her)[\W_]+(?:(?:stored|saved|"
                       r"remembered|known|other)[\W_]+){0,2}(?:memor(?:y|ies)|facts|records|data|notes)\b"), None),
    ("destructive", _c(_IMP + r"(?:delete|erase|wipe|destroy|purge|drop|forget|clear|remove)[\W_]+(?:all|every|each|"
                       r"any)[\W_]+(?:of[\W_]+)?(?:the[\W_]+|your[\W_]+)?(?:(?:stored|saved|remembered|known|other)[\W_]+)"
                       r"{0,2}(?:memor(?:y|ies)|facts|records|data|notes)[\W_]+(?:(?:stored|saved|kept)[\W_]+)?(?:about|of|"
                       r"for|on)[\W_]+(?:the|this|that|my|our|every|each|all)[\W_]+users?\b"), None),
    ("destructive", _c(_IMP + r"(?:delete|erase|wipe|destroy|purge|shred|corrupt)[\W_]+(?:all[\W_]+)?(?:of[\W_]+)?"
                       r"(?:the[\W_]+user'?s|users'?|their|his|her)[\W_]+(?:files|data|memor(?:y|ies)|e-?mails|notes|"
                       r"documents|photos|account|backups|messages|contacts)\b"), None),
    ("destructive", _c(_IMP + r"(?:delete|erase|wipe|destroy|purge|forget)[\W_]+(?:everything|all)[\W_]+(?:you[\W_]+"
                       r"know[\W_]+)?about[\W_]+(?:the[\W_]+)?(?:user|users|me)\b"), None),
]


# Phrases read with every space and symbol removed (only for text whose letters were set apart).
COMPACT_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("override", _c(r"(?P<v>ignore|disregard|forget|override|bypass)(?:all|any|the|your|of)*(?:previous|prior|above|"
                    r"earlier|preceding|original|initial|system|your|all)+(?:instructions?|rules|directives?|guidelines|"
                    r"prompts?|commands|restrictions)")),
    ("reveal", _c(r"(?P<v>reveal|show|print|output|display|repeat|leak|tell|give)(?:me|us)?(?:the|your|full)*"
                  r"(?:systemprompt|initialprompt|hiddenprompt|instructions|systemmessage)")),
    ("persona", _c(r"youarenow|fromnowonyou|developermode|godmode|jailbreakmode|doanythingnow|(?:without|no)"
                   r"(?:any)?(?:restrictions|filters|rules|limits|guardrails)")),
    ("bypass", _c(r"(?P<v>skip|disable|bypass|ignore|turnoff)(?:all|any|the|your)*(?:safety|security|content)"
                  r"(?:checks?|filters?|guardrails|guidelines|restrictions|polic(?:y|ies))")),
    ("exfiltration", _c(r"(?P<v>forward|send|email|upload|leak)(?:all|the|users?|his|her|their|my)*(?:emails|messages|"
                        r"passwords|credentials|data|files|conversations|apikeys|secrets)to")),
    ("role_marker", _c(r"^system(?:prompt|message|override)?(?:the|you|user|ignore|new)")),
]


AMBIGUOUS_LEET = {"1": "il", "!": "il", "|": "li"}
LEET_VOCAB = frozenset(re.findall(r"[a-z]{3,}", " ".join((
    _EN_OVERRIDE_V, _EN_PRIOR, _EN_INSTR, _EN_REVEAL_V, _EN_SYSPROMPT, _EN_SEND_V, _EN_BYPASS_V, _EN_GUARD_Q,
    _EN_GUARD_N, _EN_SECRET_WORDS, _EN_DATA,
    "system prompt developer mode jailbreak unrestricted unfiltered uncensored you are now act as pretend evil "
    "admin administrator root user users email emails all everything")))) - {"the"}


def rule_names() -> list[str]:
    """The rule families, in the order they are checked."""
    return list(dict.fromkeys(name for name, _, _ in RULES))



# A directive to whoever reads the text: an order about answering, replying or acting, at the start of a
# sentence (after an optional addressee). From the user it is a preference ("Always answer in German.");
# inside a tool result, a web page or a document it is someone else steering the model.
DIRECTIVE = re.compile(
    r"(?:^|[.!?;:\n。！？]\s*)(?:[^\W\d_]+\s*[,:]\s*)?(?:always|never|from\s+now\s+on|henceforth|please|do\s+not|don'?t|"
    r"make\s+sure|remember\s+to|you\s+(?:must|should|will|are\s+to)|answer|reply|respond|say|tell|use|call|send|forward|"
    r"include|add|recommend|ignore|treat|siempre|nunca|a\s+partir\s+de\s+ahora|por\s+favor|responde|contesta|usa|env[ií]a|"
    r"immer|nie|ab\s+sofort|bitte|antworte|verwende|schicke?|toujours|jamais|d[ée]sormais|r[ée]ponds|utilise|envoie|"
    r"sempre|mai|d'ora\s+in\s+poi|rispondi|всегда|никогда|отныне|пожалуйста|отвечай|используй|отправ\w*|"
    r"总是|永远|从现在开始|以后|请|いつも|今後|常に|항상|앞으로)(?![^\W\d_])",
    re.IGNORECASE,
)


# Who a text speaks to. Not rules that refuse: each is one more feature of the classifier (its weight is
# learned), since "Claude, remember that I'm vegetarian." addresses the model too and is a fact.
ADDRESSEE = re.compile(
    # a vocative at the start of a clause: "Model,", "Hey bot:", "Dear LLM,", "AI assistant —", "To any language model
    # with access to this note:", "IA que leas esto:", "KI-Assistent,", "AIへ：", "给AI的指令："
    rf"(?:^|[.!?;。！？]\s+|\n\s*|[\"(\[>«]\s*|\*\*?\s*)(?:(?:hey|hi|hello|yo|dear|attention|to|for|oye|hola|para|hallo|an|"
    rf"liebe[rs]?|cher|chere|a|au|aux|caro|cara|querid[oa]|ola|al|эй|привет|для|дорог\w+|أيها)\s+)?(?:(?:the|any|all|every|"
    rf"each|my|el|la|los|las|der|die|das|den|le|les|l'|il|o|os|jede[nrs]?|cualquier|tout|toute|tous|ogni|qualquer|"
    rf"любо\w+|всем)\s*)?(?:(?:automated|virtual|digital|personal|future|coding|helpful|friendly|smart|ai|a\.i\.)\s+)?"
    rf"{_AI}(?:[\s-]*(?:assistant|assistent|agent|model|system|helper|reader|virtual|instructions?|note|notice|"
    rf"ассистент|помощник|助手|模型|アシスタント))?"
    rf"(?:\s+(?:that|who|which|{_READING}|with|que|qui|che|der|die|das|который|которая|"
    rf"читающий)\b[^,:;.!?，：、\n]{{0,60}}?)?(?:への指示|への注意|へ|に|에게|께|的指令|的说明)?"
    rf"(?:[\"»]?\s*(?:[,،](?![a-z0-9])|[:;!—–，：、»])|\s+-\s)"  # "Bot,Assistant,…" is a CSV row
    # "Note to the model:", "Memo for any assistant that retrieves this", "P.S. for the chatbot"
    rf"|\b(?:note|message|memo|reminder|instructions?|notice|order|directive|p\.?s\.?|attention|hinweis|nachricht|"
    rf"anweisung|notiz|nota|mensaje|instrucciones|aviso|consigne|remarque|message|messaggio|istruzioni|mensagem|"
    rf"заметка|сообщение|указание|инструкция|напоминание)\w*\s+(?:\w+\s+){{0,2}}?(?:to|for|an|fur|para|pour|per|"
    rf"a|al|для)\s+(?:(?:the|any|all|every|whichever|whatever|each|den|die|das|el|la|los|las|le|les|il|gli|o|a|"
    rf"jede[nrs]?|cualquier|tout|toute|tous|ogni|qualquer|любого|любой|всех)\s+)*{_AI}"
    # "whoever reads this", "any AI that loads this", "AI reading this", "If you are an AI", "if an AI agent reads this"
    rf"|\b(?:whoever|whichever|anyone|anybody|quien|quienquiera|wer|qui(?:conque)?|chiunque|кто)\s+(?:\w+\s+){{0,2}}?"
    rf"{_READS}\s+(?:this|these|that|my|esto|esta|este|das|dies\w*|ceci|cette|questo|questa|это|эту|этот)"
    rf"|{_AI}\s+(?:that|who|which|que|der|die|das|qui|che|который|которая)?\s*{_READS}\s+(?:this|these|my|esto|esta|"
    rf"dies\w*|ceci|cette|questo|questa|это|эту|этот)"
    rf"|\bif\s+you(?:'re|\s+are)\s+(?:an?\s+)?(?:\w+\s+)?{_AI}"
    rf"|\bif\s+(?:an?\s+|any\s+)?(?:\w+\s+)?{_AI}\s+(?:\w+\s+)?{_READS}"
    # a short heading or vocative that names an AI reader, then a colon or a comma, whatever words stand around the
    # noun: "AI reviewer:", "Note to shopping assistants:", "Attention translation AI:", "Dear AI meeting assistant,",
    # "LLM agents refactoring this module:", "pour l'assistant :", "для асистента:", "An alle KI-Agenten,",
    # "إلى المساعد الذكي:", "AI सहायक के लिए:" (words are runs of non-spaces: Devanagari's vowel signs are not \w)
    # The reader may be described by a relative clause or a participle ("Pour les assistants qui lisent cette page :",
    # "An alle Sprachmodelle, die dieses Protokoll zusammenfassen:", "Προς το μοντέλο που το διαβάζει:",
    # "For coding agents working in this repository:") or by words before it ("इस पेज को पढ़ने वाले मॉडल के लिए:").
    rf"|(?:^|[.!?;。！？]\s+|[:：]\s+|\n\s*|[\"(\[>«]\s*|<!--\s*|(?://+|#+|/\*+)\s*)(?:(?:[^\s:：,،.!?;]+\s+){{0,5}}?{_AI_HEAD}"
    rf"(?:,?\s+(?:{_RELATIVE})\s*[^:：.!?;\n]{{0,70}}?|(?:\s+[^\s:：,،.!?;]+){{0,3}}?)\s*[:：—]"
    rf"|(?:[^\s:：,،.!?;]+\s+)?{_AI_HEAD}(?:\s+[^\s:：,،.!?;]+){{0,2}}?\s*[,،](?![a-z0-9]))"
    # CJK and Korean: "读到这条的AI：", "このメモを読んだAIへ：", "이 메모를 읽는 AI에게:"
    rf"|(?:^|[，。：:,])\s*[给給]?[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\s]{{0,16}}(?<![a-z])(?:(?:ai|人工智能)?(?:模型|助手|助理|"
    rf"机器人|機器人|智能体|代理|モデル|アシスタント|エージェント|ボット|모델|어시스턴트|에이전트|봇)|ai)"
    rf"(?:的(?:指令|说明|提示)|への指示|への注意|へ|에게)?[：:，,]",
    re.IGNORECASE,
)
# A cheap first look for the screen's fast path: every form of ADDRESSEE names an AI noun or a "whoever";
# a text with neither cannot be addressed, and this search costs a fraction of ADDRESSEE's.
MAY_BE_ADDRESSED = re.compile(rf"(?<![^\W\d_])(?:{_AI}|{_AI_MORE})|\b(?:whoever|whichever|anyone|anybody|quien\w*|wer|"
                              rf"qui\w*|chiunque|кто)\b|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]", re.IGNORECASE)
# A duty laid on the model in the third person: "the assistant must ...", "der Assistent muss ...".
OBLIGATION = re.compile(
    rf"\b{_AI}\s+(?:\w+\s+)?(?:must|should|shall|is\s+(?:required|expected|to)|are\s+(?:required|to)|has\s+to|have\s+to|"
    rf"needs?\s+to|will\s+now|muss|müssen|musst|soll|sollen|debe|deben|tiene\s+que|deve|devono|doit|doivent|"
    rf"должен|должна|должны|обязан)\b"
    rf"|(?:模型|助手|机器人|智能体|AI)(?:必须|应该|应当|需要)",
    re.IGNORECASE,
)
# A time scope that reaches past this conversation ("from now on", "next time", "in every future session"),
# read on the normalised text (casefolded, Latin accents stripped). Not a rule: the user's own preferences
# have one as often as injections do ("From now on, call me Sasha."); the classifier weighs it, alone and
# together with an AI reader or a rule family (engram.safety.instructions.signals).
FUTURE = re.compile(
    r"\b(?:from\s+now\s+on|going\s+forward|henceforth|hereafter|from\s+(?:today|this\s+point)|starting\s+(?:now|today|"
    r"tomorrow|immediately)|next\s+time|in\s+(?:the\s+)?future|in\s+(?:all|every|each|any)\s+(?:\w+\s+)?(?:future|later|"
    r"subsequent|next|new|other)\s+\w+|(?:every|each)\s+(?:time|session|conversation|chat|reply|answer|response)|"
    r"(?:future|later|subsequent|upcoming)\s+(?:sessions?|conversations?|chats?|interactions?|replies|answers|responses)|"
    r"permanently|never\s+again|always|forever|"
    r"a\s+partir\s+de\s+(?:ahora|hoy|agora|hoje|maintenant|aujourd'?hui)|de\s+ahora\s+en\s+adelante|en\s+adelante|"
    r"de\s+agora\s+em\s+diante|la\s+proxima\s+vez|da\s+proxima\s+vez|(?:en\s+las|nas|en\s+les)\s+proxim\w+\s+\w+|siempre|"
    r"nunca\s+mas|sempre|ab\s+(?:sofort|jetzt|heute)|von\s+nun\s+an|(?:zu)?kunftig|fortan|in\s+zukunft|immer|"
    r"(?:beim\s+)?nachste[ns]?\s+mal|desormais|dorenavant|la\s+prochaine\s+fois|toujours|a\s+l'avenir|"
    r"d'ora\s+in\s+(?:poi|avanti)|da\s+ora\s+in\s+poi|la\s+prossima\s+volta|in\s+futuro|no\s+futuro|"
    r"vanaf\s+nu|voortaan|altijd|od\s+(?:teraz|tej\s+pory|dzis)|zawsze|nastepnym\s+razem|bundan\s+(?:sonra|boyle)|"
    r"her\s+zaman)\b"
    r"|(?<![^\W\d_])(?:с\s+этого\s+момента|с\s+сегодняшнего\s+дня|отныне|впредь|всегда|в\s+следующий\s+раз|в\s+будущем|"
    r"в\s+(?:каждом|любом)\s+(?:следующем\s+)?\w+|من\s+الآن|دائم|في\s+المرة\s+القادمة|مستقبل)"
    r"|从现在(?:起|开始)|以后|今后|今後|下次|每次|始终|永远|总是|次回|これから|常に|いつも|毎回|以降|앞으로|항상|다음부터|이제부터",
    re.IGNORECASE,
)
# An AI named anywhere in the text, as any noun of ADDRESSEE's (a subject or an object, not only a vocative):
# "It would be great if the AI stopped ...", "Er bat den Assistenten ...". A feature, never a rule.
NAMES_AI = re.compile(rf"(?<![^\W\d_])(?:{_AI}|{_AI_MORE})(?![^\W\d_])|(?:模型|助手|助理|机器人|機器人|智能体|アシスタント|モデル|에이전트|어시스턴트)"
                      r"|(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])ai|ai(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])",
                      re.IGNORECASE)
