"""How people say "my password for X is Y", per language: one table the secret screen's prose rules are built from.

Each language lists its words for a password (`nouns`), the prepositions that say what it is for ("for the
bank", "für den Server", "от почты": `preps`), the articles and possessives that may follow them (`dets`) and
its copulas ("is", "lautet", "c'est", "это", "adalah": `copulas`). A language that marks "for the bank" with a
case ending or puts the verb last needs no preposition or copula: the rules also accept one to three words
before a copula, and a value right after the label. Add a language here, not a new rule.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engram.language.normalise import UNSPACED_SCRIPTS

__all__ = ["ANSWER_WORDS", "API_KEY_WORDS", "CODE_WORDS", "COPULAS", "DETS", "FUNCTION_WORDS", "LANGS", "NOUNS", "PAYMENT_WORDS",
           "PHRASE_WORDS", "PIN_WORDS", "PLACEHOLDER_WORDS", "POSSESSIVES_AFTER", "PREPS", "RECOVERY_WORDS",
           "SECURITY_QUESTION_WORDS", "TWO_FACTOR_WORDS", "UNSPACED", "alternation", "spaced", "unspaced"]


class Words(NamedTuple):
    nouns: tuple[str, ...]
    preps: tuple[str, ...] = ()
    dets: tuple[str, ...] = ()
    copulas: tuple[str, ...] = ()


def _w(s: str) -> tuple[str, ...]:
    return tuple(s.split("|")) if s else ()


LANGS: dict[str, Words] = {
    "en": Words(_w("password|passcode|passphrase"), _w("for|of|on|to|at"), _w("the|my|our|your|his|her|their"),
                _w("is|was|'s|’s")),
    "fr": Words(_w("mot de passe|mots de passe|mdp|code d'accès|code secret"), _w("pour|de|du|des|à|au|sur"),
                _w("le|la|les|l'|mon|ma|mes|notre|nos|ton|ta|son|sa"), _w("est|c'est|c’est|était|etait|sera")),
    "es": Words(_w("contraseña|contrasena|clave|clave de acceso"), _w("para|de|del|por|en"),
                _w("el|la|los|las|mi|mis|nuestro|nuestra|tu|su"), _w("es|era|será|sera")),
    "pt": Words(_w("senha|palavra-passe|palavra passe"), _w("para|pra|pro|de|do|da|dos|das|no|na"),
                _w("o|a|os|as|meu|minha|nosso|nossa|seu|sua"), _w("é|e|era|será|eh")),
    "it": Words(_w("password|parola d'ordine"), _w("per|di|del|della|dello|dei|degli|dell'|al|alla|sul"),
                _w("il|lo|la|i|gli|le|mio|mia|miei|nostro|nostra|tuo|tua"), _w("è|e|era|sarà")),
    "ca": Words(_w("contrasenya"), _w("per|de|del|per a"), _w("el|la|els|les|meu|meva"), _w("és|es|era")),
    "gl": Words(_w("contrasinal"), _w("para|de|do|da"), _w("o|a|meu|miña"), _w("é|e")),
    "eu": Words(_w("pasahitza")),
    "de": Words(_w("passwort|kennwort|zugangscode|passwörter"), _w("für|fürs|vom|von|zum|zur|des|bei|beim|im"),
                _w("den|die|das|dem|der|mein|meine|meinen|meinem|unser|unsere|unseren"),
                _w("ist|lautet|war|heißt|heisst|lautete")),
    "nl": Words(_w("wachtwoord"), _w("voor|van|bij|op"), _w("het|de|mijn|ons|onze"), _w("is|was|luidt")),
    "af": Words(_w("wagwoord"), _w("vir|van"), _w("die|my"), _w("is")),
    "sv": Words(_w("lösenord|lösenordet|losenord"), _w("för|på|till|till"), _w("min|mitt|mina|din|ditt|vår|vårt"), _w("är|var|lyder")),
    "no": Words(_w("passord|passordet"), _w("for|på|til"), _w("min|mitt|mine|vår"), _w("er|var")),
    "da": Words(_w("adgangskode|adgangskoden|kodeord|kodeordet"), _w("for|på|til"), _w("min|mit|mine|vores"), _w("er|var")),
    "is": Words(_w("lykilorð|lykilord"), _w("að|fyrir"), (), _w("er|var")),
    "fi": Words(_w("salasana|salasanani|salasanasi"), (), (), _w("on|oli")),
    "et": Words(_w("parool|parooli|salasõna"), (), _w("minu"), _w("on|oli")),
    "lv": Words(_w("parole|paroli"), _w("no|uz"), _w("mana"), _w("ir")),
    "lt": Words(_w("slaptažodis|slaptazodis"), (), _w("mano"), _w("yra")),
    "pl": Words(_w("hasło|hasła|haslo"), _w("do|dla|od|na|w"), _w("mój|moje|moja|mojego|nasz|nasze"),
                _w("to|jest|brzmi|to jest")),
    "cs": Words(_w("heslo|hesla"), _w("k|ke|do|na|pro|od"), _w("můj|moje|mé|naše"), _w("je|zní|to je|bylo")),
    "sk": Words(_w("heslo|hesla"), _w("k|ku|do|na|pre|od"), _w("moje|môj|naše"), _w("je|znie|bolo")),
    "sl": Words(_w("geslo"), _w("za|do|od|na"), _w("moje|naše"), _w("je")),
    "hr": Words(_w("lozinka|lozinku|šifra|šifru|sifra"), _w("za|do|od|na"), _w("moja|moju|naša"), _w("je|glasi")),
    "ro": Words(_w("parola|parolă|parolei"), _w("pentru|de la|la|de"), _w("mea|meu"), _w("este|e|era")),
    "hu": Words(_w("jelszó|jelszo|jelszava|jelszavam|jelszavad|jelszavunk|jelszavát|jelszavat"), (), _w("a|az"), _w("van")),
    "el": Words(_w("κωδικός|κωδικός πρόσβασης|συνθηματικό"), _w("για|του|της|στο|στον|στην"),
                _w("το|τη|την|τον|μου|σου"), _w("είναι|ήταν")),
    "ru": Words(_w("пароль|пароля|паролем|кодовое слово"), _w("от|для|к|на|в|до"), _w("мой|моя|моего|наш"),
                _w("это|—|будет|был")),
    "uk": Words(_w("пароль|гасло"), _w("від|до|для|на"), _w("мій|моя|наш"), _w("це|є|—")),
    "be": Words(_w("пароль"), _w("ад|да|для"), (), _w("гэта")),
    "bg": Words(_w("парола|паролата"), _w("за|на"), _w("моята|мой"), _w("е|беше")),
    "mk": Words(_w("лозинка|лозинката"), _w("за|на"), (), _w("е")),
    "tr": Words(_w("şifre|şifrem|şifresi|şifreniz|sifre|parola|parolam"), _w("için"), _w("benim"), _w("olan")),
    "id": Words(_w("kata sandi|sandi|kata laluan"), _w("untuk|ke|dari|buat"), _w("saya|aku|ku|kami"),
                _w("adalah|ialah|yaitu|iaitu")),
    "vi": Words(_w("mật khẩu|mat khau"), _w("của|cho|vào"), _w("tôi|mình|em|anh"), _w("là")),
    "tl": Words(_w("password"), _w("sa|ng"), _w("ko|mo|namin|natin|niya"), _w("ay")),
    "sw": Words(_w("nenosiri"), _w("ya|wa|la"), _w("yangu"), _w("ni")),
    "sq": Words(_w("fjalëkalimi|fjalëkalim|fjalekalim"), _w("për|i|e"), _w("im|ime"), _w("është|eshte")),
    "ga": Words(_w("pasfhocal"), (), (), _w("is")),
    "cy": Words(_w("cyfrinair"), (), (), _w("yw|ydy")),
    "he": Words(_w("סיסמה|סיסמא|הסיסמה|הסיסמא"), _w("של|ל"), (), _w("היא|הוא|זה")),
    "ar": Words(_w("كلمة المرور|كلمة السر"), (), (), _w("هي|هو")),
    "fa": Words(_w("رمز عبور|گذرواژه"), (), (), _w("است")),
    "ur": Words(_w("پاس ورڈ"), (), (), _w("ہے")),
    "hi": Words(_w("पासवर्ड"), (), (), _w("है")),
    "bn": Words(_w("পাসওয়ার্ড"), (), (), _w("হল")),
    "ka": Words(_w("პაროლი")), "hy": Words(_w("գաղտնաբառ")),
    "th": Words(_w("รหัสผ่าน"), (), (), _w("คือ")),
    # Written without spaces: the label is matched anywhere and the copula is a particle glued to it.
    "zh": Words(_w("密码|密碼|口令"), (), (), _w("是|为|為")),
    "ja": Words(_w("パスワード|暗証番号"), (), (), _w("は|が")),
    "ko": Words(_w("비밀번호|암호"), (), (), _w("는|은|이|가")),
}

# Scripts written without spaces between words (Thai, kana, CJK ideographs, Hangul).
UNSPACED = re.compile(f"[{UNSPACED_SCRIPTS}]")


def _union(field: str) -> tuple[str, ...]:
    return tuple(sorted({w for words in LANGS.values() for w in getattr(words, field)}, key=lambda w: (-len(w), w)))


NOUNS, PREPS, DETS, COPULAS = _union("nouns"), _union("preps"), _union("dets"), _union("copulas")
# Possessives that follow the noun ("parola mea", "password ko", "kata sandi saya", "κωδικός μου").
POSSESSIVES_AFTER = ("ko", "mo", "namin", "natin", "niya", "μου", "σου", "saya", "aku", "ku", "mea", "meu", "mía", "mío",
                     "mia", "mio", "tôi", "mình")


def spaced(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words of scripts that put spaces between words."""
    return tuple(w for w in words if not UNSPACED.search(w))


def unspaced(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words of scripts written without spaces."""
    return tuple(w for w in words if UNSPACED.search(w))


def alternation(words: tuple[str, ...]) -> str:
    """A regex alternation of `words`, longest first, spaces matching any run of whitespace."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=lambda w: (-len(w), w)))


# Words for a PIN or a card's security code, per language: a short number that opens an account, a card or a
# phone. The secret screen reads a number after one of them (maybe a few words later, maybe written in spaced
# or dashed digits: "PIN 4 4 7 1", "Пин-код карты 4471"). Add a language here, not a new rule.
PIN_WORDS: dict[str, tuple[str, ...]] = {
    "en": _w("pin|pin code|pin number|passcode|security code|unlock code|unlock pin|access code|cvv|cvv2|cvc|cvc2|csc"),
    "de": _w("pin|pin-code|pincode|pin-nummer|geheimzahl|sicherheitscode|prüfziffer|prüfnummer|entsperrcode|zugangscode"),
    "fr": _w("code pin|code secret|code confidentiel|code de sécurité|cryptogramme|code de déverrouillage"),
    "es": _w("pin|código pin|código de seguridad|código de desbloqueo|clave del cajero"),
    "pt": _w("pin|código pin|código de segurança|código de desbloqueio"),
    "it": _w("pin|codice pin|codice di sicurezza|codice di sblocco"),
    "nl": _w("pincode|pin-code|beveiligingscode|toegangscode"),
    "pl": _w("pin|kod pin|kod bezpieczeństwa|kod odblokowania"),
    "cs": _w("pin|kód pin|bezpečnostní kód"),
    "ru": _w("пин|пин-код|пинкод|пин код|код безопасности"),
    "uk": _w("пін|пін-код|пінкод"),
    "tr": _w("pin|pin kodu|güvenlik kodu|şifre|şifresi|şifrem|kart şifresi"),
    "sv": _w("pinkod|pin-kod|pinkoden|säkerhetskod"),
    "no": _w("pinkode|pin-kode|pin-koden"),
    "da": _w("pinkode|pin-kode|pinkoden"),
    "fi": _w("pin-koodi|pin-koodini|tunnusluku|turvakoodi"),
    "hu": _w("pin-kód|pin kód|biztonsági kód"),
    "ro": _w("codul pin|cod pin"),
    "el": _w("pin|κωδικός pin"),
    "id": _w("pin|kode pin"),
    "vi": _w("mã pin"),
    "ja": _w("暗証番号|pin|pinコード|セキュリティコード"),
    "zh": _w("pin码|密码|安全码"),
    "ko": _w("pin|비밀번호|보안코드|핀번호"),
}

# The words for a code, per language, for "the code of the alarm is …", "il codice dell'allarme è …", "o código do
# alarme é …": the code word, a few words, then what it opens (engram.safety.prose_words.LOCK_STEMS, the one list).
CODE_WORDS = _w("code|codes|código|codigo|codice|kod|kód|код|koodi|kode|zahlencode")

# Words for a list of 2FA backup or recovery codes, per language; a list of codes after one of them (and maybe a
# few words naming the account: "für GitHub", "de Google") is a secret. Add a language here, not a new rule.
RECOVERY_WORDS = _w(
    "backup codes|backup code|recovery codes|recovery code|scratch codes|scratch code|2fa codes|2fa code|mfa codes|mfa code|"
    "one-time codes|one-time code|otp codes|otp code|"
    "codes de récupération|codes de recuperation|codes de secours|codes de sauvegarde|"
    "códigos de respaldo|códigos de recuperación|codigos de recuperacion|códigos de backup|códigos de reserva|"
    "códigos de recuperação|codigos de recuperacao|codici di backup|codici di recupero|codici di riserva|"
    "wiederherstellungscodes|backup-codes|sicherungscodes|notfallcodes|herstelcodes|back-upcodes|reservecodes|"
    "kody zapasowe|kody odzyskiwania|kody jednorazowe|záložní kódy|kódy pro obnovení|záložné kódy|"
    "coduri de rezervă|coduri de rezerva|coduri de recuperare|reservkoder|återställningskoder|"
    "gjenopprettingskoder|reservekoder|backupkoder|gendannelseskoder|varakoodit|palautuskoodit|"
    "biztonsági kódok|tartalék kódok|helyreállítási kódok|yedek kodlar|yedek kodları|kurtarma kodları|kurtarma kodlari|"
    "резервные коды|коды восстановления|резервні коди|коди відновлення|mã dự phòng|ma du phong|mã khôi phục|"
    "kode cadangan|kode pemulihan|εφεδρικοί κωδικοί|κωδικοί ανάκτησης|קודי גיבוי|קודי שחזור|رموز الاسترداد|"
    "رموز احتياطية|رموز النسخ الاحتياطي|کدهای پشتیبان|کدهای بازیابی|बैकअप कोड|रिकवरी कोड|รหัสสำรอง|"
    "备用码|备用验证码|恢复码|備用碼|復原碼|バックアップコード|リカバリーコード|確認コード一覧|백업 코드|복구 코드"
)

# Words for a passphrase (a password made of words), per language; a run of plain words after one of them,
# or after a word for a password, is the passphrase ("my passphrase is correct horse battery staple").
PHRASE_WORDS = _w(
    "passphrase|pass phrase|pass-phrase|master passphrase|phrase de passe|phrase secrète|passwort-satz|passsatz|"
    "kennsatz|frase de contraseña|frase de paso|frase secreta|frase-senha|frase de acesso|frase segreta|"
    "wachtwoordzin|fraza hasła|hasło frazowe|кодовая фраза|парольная фраза|секретная фраза|lösenfras|"
    "adgangssætning|passordfrase|salalause|parola segreta|パスフレーズ|密码短语|암호문구"
)

# Words for a recovery key (a disk's or an account's, written in groups of letters and digits), per language.
RECOVERY_KEY_WORDS = _w(
    "recovery key|recovery password|restore key|unlock key|escrow key|personal recovery key|"
    "clé de récupération|cle de recuperation|wiederherstellungsschlüssel|wiederherstellungsschluessel|"
    "clave de recuperación|clave de recuperacion|chave de recuperação|chave de recuperacao|chiave di ripristino|"
    "chiave di recupero|herstelsleutel|klucz odzyskiwania|obnovovací klíč|ключ восстановления|ключ відновлення|"
    "kurtarma anahtarı|khóa khôi phục|kunci pemulihan|恢复密钥|復原金鑰|回復キー|복구 키"
)

# Words that name a crypto wallet, its brands and its seed, per language: a line of 12-24 plain words in a text that names
# one is the wallet's seed even with no label before it ("por si pierdo el Ledger: orbit mango velvet …").
WALLET_WORDS = _w(
    "wallet|ledger|trezor|metamask|phantom|exodus|keplr|electrum|coinbase|trust wallet|rabby|keystone|bitbox|tangem|"
    "seed|mnemonic|bip39|bip-39|crypto|bitcoin|ethereum|solana|"
    "carteira|cartera|portefeuille|portafoglio|portemonnee|geldbörse|portfel|peněženk|cüzdan|dompet|"
    "кошел|гаманц|钱包|錢包|ウォレット|지갑|محفظ|ארנק|बटुआ|วอลเล็ต"
)

# Function words of the languages above: a run of words holding one of them is a sentence, not a passphrase.
FUNCTION_WORDS = frozenset(_w(
    "a|an|the|and|or|but|nor|so|of|in|on|at|to|for|from|by|with|without|into|onto|over|under|is|are|was|were|be|"
    "been|being|am|has|have|had|do|does|did|will|would|can|could|should|must|may|might|shall|not|no|never|it|its|"
    "this|that|these|those|which|who|what|when|where|how|why|if|then|than|as|i|you|he|she|we|they|me|my|your|"
    "our|their|his|her|them|us|every|each|all|any|some|more|most|less|very|too|also|just|only|still|even|now|"
    "here|there|about|after|before|again|once|enough|always|usually|often|out|up|down|off|cannot|can't|won't|don't|"
    "doesn't|isn't|exceed|exceeds|least|up to|"
    "der|die|das|den|dem|des|ein|eine|einen|einem|einer|und|oder|aber|ist|sind|war|wird|werden|nicht|kein|"
    "keine|im|auf|mit|für|von|zu|zum|zur|bei|nach|aus|auch|noch|schon|sehr|wie|wenn|dass|es|sie|wir|ich|du|"
    "le|la|les|un|une|des|du|et|ou|est|sont|dans|sur|avec|pour|pas|ne|plus|que|qui|ce|cette|il|elle|nous|vous|"
    "el|los|las|una|unos|y|o|es|son|en|con|para|por|del|al|se|su|sus|lo|muy|más|pero|"
    "lo|gli|di|da|è|non|per|che|della|delle|dei|nel|alla|al|ma|molto|"
    "os|as|um|uma|e|é|em|com|não|do|da|dos|das|no|na|mas|muito|"
    "het|een|en|van|voor|met|op|niet|maar|ook|"
    "i|w|z|na|do|nie|jest|się|że|"
    "и|в|на|с|не|это|для|или|по|что|как|от|до|из"
))

# Words that name two-factor sign-in and its authenticator app, per language: a base32 key in a text that names one is
# the app's setup key (a TOTP seed: "can't scan the code? enter this key", "chiave di configurazione", "Sekret TOTP").
# Add a language here, not a new rule.
TWO_FACTOR_WORDS = _w(
    "2fa|mfa|totp|hotp|otpauth|two-factor|two factor|2-factor|two-step|2-step|authenticator|authy|setup key|"
    "secret key|manual entry|enter manually|enter this key|can't scan|cannot scan|can’t scan|"
    "double authentification|deux facteurs|2 facteurs|double facteur|clé de configuration|a2f|"
    "dos factores|doble factor|dos pasos|clave de configuración|clave de configuracion|autenticador|"
    "dois fatores|duas etapas|chave de configuração|chave de configuracao|"
    "due fattori|due passaggi|chiave di configurazione|autenticatore|"
    "zwei-faktor|zweifaktor|2-faktor|zwei faktor|zweistufig|einrichtungsschlüssel|einrichtungsschluessel|authentifikator|"
    "tweestaps|twee-factor|tweefactor|2-staps|instelsleutel|"
    "dwuskładnikow|dwuskladnikow|dwuetapow|klucz konfiguracji|klucz konfiguracyjny|"
    "dvoufázov|dvoufaktorov|dvoufazov|klíč pro nastavení|"
    "двухфакторн|двухэтапн|ключ настройки|аутентификатор|двофакторн|двоетапн|ключ налаштування|"
    "iki faktörlü|iki adımlı|kurulum anahtarı|tvåfaktor|tvåstegs|tofaktor|totrinns|totrins|to-faktor|"
    "kaksivaihei|määritysavain|kétlépcsős|kétfaktoros|doi factori|doi pași|δύο παραγόντων|δύο βημάτων|"
    "dua langkah|dua faktor|hai yếu tố|2 bước|אימות דו|التحقق بخطوتين|"
    "二段階認証|2段階認証|二要素認証|認証アプリ|セットアップキー|双重验证|两步验证|双因素|二次验证|身份验证器|"
    "2단계 인증|이중 인증|2차 인증"
)

# The words a template writes where its reader is to put their own value, per language: "your", "here", "insert"
# ("xoxb-your-token-here", "xoxb-tu-token-aquí", "dein-token-hier", "votre-jeton-ici", "seu-token-aqui"). A token
# whose parts after a vendor's prefix are all words, one of them from this table, is a stand-in, not a secret.
PLACEHOLDER_WORDS = frozenset(_w(
    "your|yours|here|insert|paste|put|replace|enter|tu|tus|su|sus|vuestro|vuestra|aquí|aqui|acá|aca|pon|pega|ton|ta|"
    "votre|vos|ici|mettez|collez|dein|deine|deinen|ihr|ihre|hier|einfügen|einfuegen|seu|sua|teu|tua|cole|coloque|"
    "tuo|qui|inserisci|jouw|uw|plak|twój|twoj|twoja|tutaj|wklej|váš|vaš|tvůj|tvuj|zde|sem|ваш|ваша|твой|твоя|сюда|здесь|"
    "vstav|senin|sizin|buraya|din|ditt|här|har|her|sinun|tähän|tahan|anda|kamu|disini|sini|của|bạn|ban|đây|"
    "σου|εδώ|edo|тут"
))

# Words that give an account to be paid into, per language: a bank transfer, an invoice, its payee and its payment
# reference, a BIC. An IBAN near one is the account a payee prints on its invoices for anyone to pay into (an
# identifier, as public as an address), not an account holder's own number kept private. Add a language here.
PAYMENT_WORDS = _w(
    "bank transfer|wire transfer|transfer to|pay to|payee|beneficiary|invoice|remittance|payment reference|bic|swift|"
    "überweisung|überweisen|ueberweisung|verwendungszweck|zahlungsempfänger|empfänger|rechnung|"
    "virement|bénéficiaire|beneficiaire|facture|référence du paiement|"
    "transferencia|beneficiario|factura|concepto|bonifico|causale|fattura|"
    "transferência|transferencia bancária|favorecido|fatura|overboeking|overmaken|factuur|kenmerk|begunstigde|"
    "przelew|przelewu|odbiorca|tytułem|tytuł przelewu|перевод|получатель|счёт на оплату|назначение платежа|"
    "havale|eft|alıcı|överföring|betalningsmottagare|faktura|overførsel|overføring|modtager|mottaker|lasku|tilisiirto|"
    "maksunsaaja|utalás|kedvezményezett|számla|plată|beneficiar|factură|převod|příjemce|variabilní symbol|"
    # payments in general: an account given "for the payments", "for the rent", "per le rate", "للتحويل"
    "payment|payments|for payments|rent|pagamento|pagamenti|per le rate|rata|pago|pagos|paiement|paiements|loyer|"
    "zahlung|zahlungen|miete|betaling|betalingen|huur|płatność|płatności|czynsz|оплата|оплаты|платеж|платёж|ödeme|"
    "kira|betalning|hyra|maksu|vuokra|fizetés|plăți|plati|chirie|platba|nájem|πληρωμή|πληρωμές|תשלום|تحويل|للتحويل|"
    "الدفع|للدفع|پرداخت|واریز|भुगतान|thanh toán|chuyển khoản|pembayaran|pembayaran sewa|付款|支付|转账|轉帳|振込|송금|입금|"
    # a bill paid by direct debit or through a tool: "pagar_recibo(…)", "addebito diretto sull'IBAN …"
    "bill|bills|direct debit|pay|pagar|recibo|recibos|bolletta|bollette|addebito|domiciliazione|lastschrift|"
    "prélèvement|prelevement|domiciliación|débito direto|débito automático|incasso|automatische incasso"
)


# "API key" and "secret key" in other languages, as people label one in prose or a note ("API-Schlüssel: …",
# "clé API : …", "ключ API — …", "API密钥：…"): the English spellings are the screen's key names already.
API_KEY_WORDS = _w(
    "api-schlüssel|api-schluessel|api schlüssel|clé api|cle api|clé d'api|clé de l'api|clave de api|clave api|"
    "clave de la api|chiave api|chiave dell'api|chave de api|chave da api|chave api|api-sleutel|api sleutel|klucz api|"
    "klíč api|api klíč|cheia api|api-nyckel|api-nøgle|api-nøkkel|api-avain|api-kulcs|ключ api|api-ключ|api ключ|"
    "ключ апи|апи ключ|ключ доступа к api|api anahtarı|api anahtari|khóa api|khoa api|kunci api|κλειδί api|מפתח api|"
    "مفتاح api|کلید api|एपीआई कुंजी|api कुंजी|คีย์ api|api密钥|api 密钥|api密鑰|api 密鑰|apiキー|api キー|api 키|api키|"
    "geheimer schlüssel|clé secrète|cle secrete|clave secreta|chiave segreta|chave secreta|geheime sleutel|"
    "sekretny klucz|секретный ключ|秘密鍵|シークレットキー|비밀 키|비밀키|密钥|金鑰"
)

# A security question, and the word for its answer, per language: the answer given after them is what opens the
# account ("Security question 'first pet' — answer: Biscuit", "Resposta da pergunta de segurança (…): Albuquerque").
SECURITY_QUESTION_WORDS = _w(
    "security question|secret question|security answer|secret answer|memorable word|memorable answer|"
    "pregunta de seguridad|pregunta secreta|respuesta de seguridad|respuesta secreta|pergunta de segurança|"
    "pergunta de seguranca|pergunta secreta|resposta de segurança|question de sécurité|question de securite|"
    "question secrète|question secrete|réponse secrète|sicherheitsfrage|geheimfrage|sicherheitsantwort|"
    "domanda di sicurezza|domanda segreta|risposta segreta|beveiligingsvraag|veiligheidsvraag|geheime vraag|"
    "pytanie bezpieczeństwa|pytanie bezpieczenstwa|pytanie zabezpieczające|kontrolní otázka|bezpečnostní otázka|"
    "întrebare de securitate|săkerhetsfråga|säkerhetsfråga|sikkerhetsspørsmål|sikkerhedsspørgsmål|turvakysymys|"
    "biztonsági kérdés|контрольный вопрос|секретный вопрос|контрольне питання|секретне питання|güvenlik sorusu|"
    "gizli soru|câu hỏi bảo mật|cau hoi bao mat|pertanyaan keamanan|pertanyaan rahasia|soalan keselamatan|"
    "ερώτηση ασφαλείας|שאלת אבטחה|سؤال الأمان|السؤال السري|سؤال الأمن|سوال امنیتی|सुरक्षा प्रश्न|คำถามความปลอดภัย|"
    "秘密の質問|セキュリティ質問|安全问题|密保问题|安全問題|密保問題|보안 질문|비밀 질문|보안질문"
)
ANSWER_WORDS = _w(
    "answer|answered|resposta|respuesta|réponse|reponse|antwort|risposta|antwoord|odpowiedź|odpowiedz|odpověď|"
    "răspuns|svar|vastaus|válasz|ответ|відповідь|cevap|cevabı|câu trả lời|jawaban|jawapan|απάντηση|תשובה|الإجابة|"
    "الجواب|پاسخ|जवाब|उत्तर|คำตอบ|答え|答案|답|답변"
)
