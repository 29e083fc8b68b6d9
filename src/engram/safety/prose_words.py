"""The words the window finder (engram.safety.prose) reads, per language: labels with their inflections, and the
little words that join a label to its value.

Each table is plain data; the finder builds its patterns from it, so a language or a form is added here, not as a
rule. Labels are written as stems with the number of letters an inflection may add ("hasł" + 3: hasło, hasła,
hasłem; "şifre" + 5: şifresi, şifremi, şifresini), so one entry covers a noun's cases without listing them and a
compound that only starts with the word ("Passwortmanager") is not a label. Words of scripts written without
spaces (kana, CJK, Hangul) are matched anywhere.
"""

from __future__ import annotations

__all__ = ["AMBIGUOUS", "ASK_VERBS", "AS_MARKERS", "BRAND_CODE_WORDS", "CHANGE_STEMS", "CODE_DEVICES", "CODE_HINTS", "CODE_STEMS",
           "COMPOUND_HEADS", "CONJUNCTIONS", "CONNECTORS", "ENGLISH_LINKS", "FINAL_COPULAS", "LOCK_STEMS",
           "LOGIN_STEMS", "NAMES", "NEGATIONS", "NOT_ANNOUNCED", "NOT_BRANDS", "NOW_WORDS", "OPEN_STEMS", "OTHER_CODES", "OTP_STEMS", "PARTICLES",
           "PASSWORD_STEMS", "PIN_STEMS", "PURPOSE_WORDS", "TECH_WORDS", "THAI_COPULAS", "THAI_FINALS", "THEN_WORDS", "TO_WORDS", "TYPE_VERBS", "UNITS", "USE_WORDS", "WHAT_WORDS", "WHEN_WORDS", "WITH_WORDS",
           "code_hints"]

# Paraphrases of "password" that name it by a figure ("the magic word", "the secret word", "das Zauberwort").
PASSWORD_PARAPHRASES: tuple[str, ...] = ("magic word", "secret word", "code word", "codeword", "mot magique",
                                         "mot secret", "palabra mágica", "palabra secreta", "palavra mágica",
                                         "palavra secreta", "zauberwort", "geheimwort", "toverwoord",
                                         "magiczne słowo", "tajne słowo", "волшебное слово", "секретное слово",
                                         "trollord", "hemligt ord", "taikasana", "varázsszó", "sihirli kelime")

# Words for a password, passcode or network key: (stem, letters an inflection may add). Any value shape may follow.
PASSWORD_STEMS: tuple[tuple[str, int], ...] = (
    ("password", 1), ("passwort", 3), ("passwörter", 2), ("passwd", 0), ("passcode", 1), ("kennwort", 3), ("kennwörter", 1),
    ("mot de passe", 0), ("mots de passe", 0), ("mdp", 0), ("contraseña", 1), ("contrasena", 1), ("contrasenya", 1), ("clave", 1),
    ("senha", 1), ("palavra-passe", 1), ("wachtwoord", 2), ("wagwoord", 1), ("hasł", 3), ("hasel", 0), ("haseł", 0),
    ("haslo", 1), ("hesl", 3), ("hesel", 0), ("geslo", 1), ("lozink", 1), ("parol", 3), ("jelsz", 5), ("lösenord", 3),
    ("losenord", 3), ("passord", 3), ("adgangskode", 2), ("kodeord", 3), ("salasan", 5), ("salasõna", 1),
    ("slaptažod", 3), ("lykilorð", 3), ("lykilord", 3), ("şifre", 5), ("sifre", 5), ("mật khẩu", 0), ("mat khau", 0), ("kata sandi", 0), ("sandi", 0),
    ("kata laluan", 0), ("пароль", 0), ("парол", 3), ("гасло", 0), ("гасл", 3), ("лозинк", 2), ("κωδικ", 4),
    ("συνθηματικ", 2), ("كلمة المرور", 0), ("كلمة السر", 0), ("كلمة مرور", 0), ("كلمة سر", 0),
    ("סיסמ", 2), ("הסיסמ", 2), ("رمز عبور", 0), ("رمز وای‌فای", 0), ("رمز وایفای", 0), ("رمز وای فای", 0), ("رمز وای", 0), ("پاس ورڈ", 0), ("पासवर्ड", 0), ("পাসওয়ার্ড", 0),
    ("password prompt", 0), *((w, 1) for w in PASSWORD_PARAPHRASES),
    ("passphrase", 1), ("pass phrase", 1), ("pw", 0), ("pwd", 0), ("ww", 0), ("lösen", 0), ("losen", 0), ("пасс", 0),
    ("รหัสไวไฟ", 0), ("รหัส wifi", 0), ("รหัสwifi", 0), ("パスフレーズ", 0), ("wifi key", 0), ("wi-fi key", 0), ("wlan-schlüssel", 0), ("netzwerkschlüssel", 0), ("network key", 0),
    ("wpa key", 0), ("clé wifi", 0), ("clé wi-fi", 0), ("clave wifi", 0), ("clave del wifi", 0),
    # chat spellings and loanwords: "passw", "pword", "passwd"; Thai พาสเวิร์ด, Swahili pasiwedi / nenosiri
    ("passw", 0), ("pword", 0), ("พาสเวิร์ด", 0), ("pasiwedi", 0), ("nenosiri", 0),
    ("รหัสผ่าน", 0), ("パスワード", 0), ("暗号", 0), ("密码", 0), ("密碼", 0), ("口令", 0), ("비밀번호", 0), ("비번", 0), ("암호", 0),
)

# Password words that end a compound in languages that glue their nouns (German, Dutch, the Nordic languages,
# Hungarian, Finnish): "Bankpasswort", "routerwachtwoord", "wifilösenord", "Mailkennwort" are labels too.
COMPOUND_HEADS: tuple[tuple[str, int], ...] = (
    ("passwort", 1), ("kennwort", 1), ("wachtwoord", 1), ("lösenord", 2), ("losenord", 2), ("passord", 2),
    ("adgangskode", 1), ("kodeord", 2), ("salasana", 1), ("jelszó", 3), ("jelszava", 0), ("password", 1),
)

# Words for a PIN or a lock's code: a number of 4-8 digits after one of them is a secret (and any password shape).
PIN_STEMS: tuple[tuple[str, int], ...] = (
    ("pin", 0), ("pin-", 5), ("pinkod", 3), ("pincode", 1), ("pin-code", 1), ("pin code", 0), ("pinkoodi", 1),
    ("passcode", 1), ("digicode", 1), ("türcode", 1), ("tuercode", 1), ("haustürcode", 1), ("zugangscode", 1),
    ("toegangscode", 1), ("deurcode", 1), ("portkod", 3), ("dörrkod", 3), ("portkode", 2), ("dørkode", 2),
    ("geheimzahl", 0), ("пин", 0), ("пин-код", 2), ("пін", 0), ("пін-код", 2), ("الرقم السري", 0), ("رمز الدخول", 0),
    ("الرمز السري", 0), ("पिन", 0), ("mã pin", 0), ("暗証番号", 0), ("핀번호", 0), ("pinコード", 0),
    ("mpin", 0), ("পিন", 0), ("পিন কোড", 0), ("পিন নম্বর", 0), ("پین", 0), ("پین کد", 0), ("รหัสพิน", 0),
)

# Words for a code in general: a number after one is a secret only when a lock, a door or a card is named near it
# ("the code of the gate", "Kód od vchodových dveří", "Le code de la carte bleue", "दरवाज़े का कोड").
CODE_STEMS: tuple[tuple[str, int], ...] = (
    ("code", 1), ("codes", 0), ("código", 1), ("codigo", 1), ("codice", 0), ("cod", 3), ("kod", 3), ("kód", 3),
    ("koodi", 2), ("kode", 2), ("код", 3), ("mã", 0), ("رمز", 0), ("کد", 0), ("รหัส", 0), ("কোড", 0), ("कोड", 0), ("κωδικ", 4), ("コード", 0), ("코드", 0),
    ("번호", 0), ("비밀번호", 0), ("קוד", 0), ("הקוד", 0),
)

# Words for a one-time code (a verification, confirmation or sign-in code sent by SMS or e-mail, an OTP): a number of
# 4-8 digits joined to one of them is a secret ("Your verification code is …", "Tu código de verificación es …",
# "Ваш код подтверждения: …", "验证码：…"); an order, error, zip or area code is none of these.
OTP_STEMS: tuple[tuple[str, int], ...] = (
    ("verification code", 1), ("confirmation code", 1), ("one-time code", 1), ("one time code", 1), ("one-time passcode", 1),
    ("one-time password", 1), ("one-time pin", 0), ("otp", 0), ("otp code", 1), ("2fa code", 1), ("mfa code", 1),
    ("two-factor code", 1), ("sign-in code", 1), ("signin code", 1), ("login code", 1), ("log-in code", 1),
    ("authentication code", 1), ("auth code", 1), ("authenticator code", 1), ("sms code", 1), ("activation code", 1),
    ("code de vérification", 0), ("code de verification", 0), ("code de confirmation", 0), ("code à usage unique", 0),
    ("code d'authentification", 0), ("code de connexion", 0), ("code sms", 0), ("código de verificación", 0),
    ("codigo de verificacion", 0), ("código de confirmación", 0), ("codigo de confirmacion", 0), ("código de un solo uso", 0),
    ("clave dinámica", 0), ("código de verificação", 0), ("codigo de verificacao", 0), ("código de confirmação", 0),
    ("codigo de confirmacao", 0), ("código de ativação", 0), ("codice di verifica", 0), ("codice di conferma", 0),
    ("codice otp", 0), ("codice monouso", 0), ("bestätigungscode", 1), ("bestaetigungscode", 1), ("verifizierungscode", 1),
    ("einmalcode", 1), ("einmalpasswort", 0), ("anmeldecode", 1), ("sms-code", 1), ("sms-tan", 0), ("mtan", 0),
    ("verificatiecode", 1), ("bevestigingscode", 1), ("eenmalige code", 1), ("inlogcode", 1), ("kod weryfikacyjny", 0),
    ("kod potwierdzający", 0), ("kod potwierdzenia", 0), ("kod jednorazowy", 0), ("kod sms", 0), ("kod autoryzacyjny", 0), ("kod blik", 0),
    ("ověřovací kód", 0), ("overovaci kod", 0), ("potvrzovací kód", 0), ("jednorázový kód", 0), ("overovací kód", 0),
    ("cod de verificare", 0), ("codul de verificare", 0), ("cod de confirmare", 0), ("codul de confirmare", 0),
    ("verifieringskod", 2), ("engångskod", 2), ("bekräftelsekod", 2), ("engangskode", 2), ("bekreftelseskode", 2),
    ("verifiseringskode", 2), ("bekræftelseskode", 2), ("verifikationskode", 2), ("vahvistuskoodi", 3),
    ("varmistuskoodi", 3), ("kertakäyttökoodi", 3), ("ellenőrző kód", 2), ("megerősítő kód", 2), ("kinnituskood", 1),
    ("код подтверждения", 0), ("проверочный код", 0), ("одноразовый код", 0), ("код из смс", 0), ("код из sms", 0), ("код з смс", 0), ("код з sms", 0), ("код із смс", 0),
    ("код для входа", 0), ("код верификации", 0), ("одноразовый пароль", 0), ("код підтвердження", 0),
    ("одноразовий код", 0), ("код перевірки", 0), ("код за потвърждение", 0), ("doğrulama kod", 5), ("dogrulama kod", 5),
    ("onay kod", 5), ("mã xác thực", 0), ("ma xac thuc", 0), ("mã xác nhận", 0), ("ma xac nhan", 0), ("mã xác minh", 0),
    ("ma xac minh", 0), ("mã otp", 0), ("ma otp", 0), ("kode verifikasi", 0), ("kode otp", 0), ("kode konfirmasi", 0),
    ("kod pengesahan", 0), ("κωδικός επαλήθευσης", 0), ("κωδικό επαλήθευσης", 0), ("κωδικός επιβεβαίωσης", 0),
    ("קוד אימות", 0), ("קוד האימות", 0), ("קוד חד פעמי", 0), ("رمز التحقق", 0), ("رمز التأكيد", 0), ("رمز التفعيل", 0),
    ("كود التحقق", 0), ("كود التفعيل", 0), ("کد تایید", 0), ("کد تأیید", 0), ("کد فعالسازی", 0), ("सत्यापन कोड", 0),
    ("ओटीपी", 0), ("वेरिफिकेशन कोड", 0), ("รหัสยืนยัน", 0), ("รหัส otp", 0), ("验证码", 0), ("驗證碼", 0), ("校验码", 0),
    ("动态码", 0), ("动态密码", 0), ("确认码", 0), ("確認碼", 0), ("確認コード", 0), ("認証コード", 0), ("認証番号", 0),
    ("ワンタイムパスワード", 0), ("인증번호", 0), ("인증 번호", 0), ("인증코드", 0), ("인증 코드", 0), ("확인 코드", 0),
    ("확인코드", 0),
)

# Short words that every one-time or recovery code's label holds (its word for a code, a password or an OTP): the
# texts searched for them before those labels' patterns run are far fewer hints than one per label.
CODE_HINTS: tuple[str, ...] = (
    "cod", "cód", "kod", "kód", "kood", "код", "otp", "passw", "пароль", "clave", "mtan", "-tan", "xác", "xac", "mã", "ma du",
    "κωδικ", "קוד", "رمز", "رموز", "كود", "کد", "कोड", "ओटीपी", "รหัส", "码", "碼", "コード", "番号", "ワンタイム", "번호", "코드",
)


def code_hints(labels: tuple[str, ...]) -> tuple[str, ...]:
    """The hints of `labels`: each label's first word of CODE_HINTS (its first four letters when it holds none)."""
    return tuple(sorted({next((h for h in CODE_HINTS if h in w.lower()), w.lower()[:4]) for w in labels}))


# What a code opens that stands for its code when named alone: a keypad, a lockbox or key safe, a combination lock, a
# door-entry panel, an installer's or engineer's menu ("Garage keypad: …", "Lockbox at the flat is …", "Schlüsseltresor
# …", "installateursmenu … intoetsen: …"), per language. A number joined to one is that code (engram.safety.prose reads
# these as labels); each also names what a code opens (LOCK_STEMS). Add a language here, not a new rule.
CODE_DEVICES: tuple[str, ...] = tuple((
    "room safe|hotel safe|in-room safe|wall safe|floor safe|gun safe|coffre-fort|caja fuerte|cassaforte|zimmersafe|"
    "hotelsafe|wandtresor|kluis|sejf|сейф|kassaskåp|pengeskab|kassakaappi|金庫|保险箱|保險箱|금고|"
    "caja de seguridad|boîtier à clés|boitier a cles|boîte à code|"
    "keypad|key pad|keypads|lockbox|lock box|lockboxes|key safe|keysafe|key box|keybox|key lockbox|combination lock|"
    "combo lock|code lock|door panel|installer menu|installer code|engineer menu|engineer code|service menu|"
    "digicode|boîte à clés|boite a cles|boîte à clé|coffre à clés|cadenas à code|serrure à code|menu installateur|"
    "teclado numérico|caja de llaves|cajetín de llaves|cajetin de llaves|candado de combinación|cerradura de código|menú de instalador|"
    "caixa de chaves|cofre de chaves|cadeado de segredo|fechadura de código|menu do instalador|"
    "tastierino|cassetta portachiavi|cassetta delle chiavi|lucchetto a combinazione|cassetta di sicurezza|serratura a codice|menu installatore|"
    "tastenfeld|codeschloss|zahlenschloss|schlüsseltresor|schlüsselsafe|schlüsselkasten|schlüsselbox|installateurmenü|"
    "installateursmenü|codepanel|"
    "codepaneel|sleutelkluis|sleutelkastje|sleutelbox|cijferslot|codeslot|installateursmenu|installatiemenu|"
    "panel z kodem|sejf na klucze|skrytka na klucze|kłódka szyfrowa|zamek szyfrowy|menu instalatora|"
    "číselník|schránka na klíče|kódový zámek|číselný zámek|"
    "кодовый замок|ключница|сейф для ключей|кейбокс|меню установщика|кодовий замок|"
    "nyckelbox|nyckelskåp|kodlås|nøkkelboks|nøkkelskap|kodelås|nøgleboks|nøgleskab|avainsäilö|avainkaappi|koodilukko|"
    "anahtar kutusu|şifreli kilit|kutu kunci|gembok kombinasi|hộp khóa|khóa số|"
    "キーボックス|キーパッド|ダイヤル錠|暗証番号錠|钥匙盒|密码锁|密碼鎖|키박스|번호키|도어락").split("|"))

# What a code opens: doors, gates, alarms, safes, intercoms, cards (stems; a word that starts with one counts).
LOCK_STEMS: tuple[str, ...] = (
    "door", "gate", "alarm", "safe", "lock", "locker", "padlock", "garage", "keypad", "entrance", "entry", "building",
    "intercom", "buzzer", "card", "porte", "portail", "coffre", "cadenas", "interphone", "carte", "immeuble", "puerta",
    "portal", "portón", "caja", "candado", "tarjeta", "porta", "portão", "cofre", "cadeado", "cartão", "cancell",
    "cassaforte", "citofon", "allarm", "alarma", "carta", "bancomat", "tür", "tor", "tresor", "schloss", "haus", "karte", "deur", "kluis",
    "poort", "kaart", "drzwi", "bram", "domofon", "sejf", "kłód", "kart", "dveř", "dveř", "vchod", "brán", "zámk",
    "interfon", "ușă", "usa", "poart", "card", "kapı", "kapi", "kilid", "cửa", "cổng", "thẻ", "pintu", "gerbang",
    "kartu", "brankas", "بوابة", "للبوابة", "باب", "الباب", "بطاقة", "لبطاقة", "خزنة", "दरवाज़", "दरवाज", "गेट",
    "कार्ड", "πόρτ", "καγκελόπορτ", "κάρτ", "χρηματοκιβώτ", "двер", "домофон", "ворот", "сейф", "замк", "картк",
    "карт", "port", "dörr", "kort", "dør", "ドア", "門", "金庫", "カード", "オートロック", "문", "현관", "카드", "금고",
    "门", "卡", "保险箱",
    "ประตู", "ตู้เซฟ", "สัญญาณกันขโมย", "บัตร", "συναγερμ", "θυροτηλέφων", "درب", "دزدگیر", "آیفون", "পাসকোড", "দরজ", "কার্ড", "alarma", "interfon",
    "аларм", "сигнализац", "сигналізац", "врат", "riaszt", "riasztó", "hälyty", "larm",  # alarms (bg, mk, sr, ru, uk, hu, fi, sv); a door (bg)
    "kapu", "דלת", "הדלת", "שער", "השער", "כניס", "הכניס", "בניין", "לבניין", "הבניין", "אזעק", "האזעק",  # a gate (hu); he
    # an installer's menu (a boiler's, a thermostat's, an alarm panel's), opened by a code
    "installer", "installateur", "instalador", "installatore", "instalator", "инсталлятор", "установщик",
    *(w for w in CODE_DEVICES if " " not in w),  # the devices that stand for their code
)

# Words that join a label to its value when they stand right before it: copulas, "is now", "becomes", "reads".
CONNECTORS: frozenset[str] = frozenset({
    "is", "was", "are", "'s", "’s", "ist", "lautet", "war", "heißt", "heisst", "wird", "est", "c'est", "c’est", "était",
    "es", "era", "será", "é", "e", "è", "ficou", "fica", "sarà", "wordt", "luidt", "är", "var", "blir", "lyder",
    "er", "blev", "to", "jest", "brzmi", "je", "zní", "bylo", "este", "olarak", "là", "adalah", "ialah", "yaitu",
    "jadi", "menjadi", "είναι", "ήταν", "—", "–", "-", "->", "→", "=>", ":", "=", "：", "це", "є", "это", "будет", "هي",
    "هو", "है", "था", "ist:", "on", "oli", "ir", "yra", "van", "glasi", "е", "היא", "הוא", "quedó", "queda", "diventa",
    "devient", "vaut", "zněl", "wynosi", "it's", "it’s", "that's", "that’s", "here's", "here’s", "been",
    # "became": a copula of change ("è diventata …", "est devenu …", "стал …")
    "became", "become", "becomes", "diventata", "diventato", "divenuta", "divenuto", "devenu", "devenue", "geworden",
    "wurde", "werd", "virou", "tornou-se", "stał", "stała", "stało", "стал", "стала", "стало", "став", "oldu",
    # an enumeration comma of scripts without spaces ("Wi-Fiのパスワード、…")
    "、", "，",
    # "that is": a value restated after its dictation ("「ご・なな・…」、つまり …", "… i.e. …", "…, cioè …")
    "i.e.", "i.e.,", "ie", "d.h.", "cioè", "c'est-à-dire", "c’est-à-dire", "decir", "seja", "dwz", "czyli", "т.е.",
    "つまり", "すなわち", "即", "也就是", "즉",
})
# "now", "today", "from now on" between a copula and the value ("ahora es …", "अब … है", "teraz to …").
NOW_WORDS: frozenset[str] = frozenset({"now", "jetzt", "nun", "maintenant", "désormais", "ahora", "adesso", "ora",
                                       "agora", "nu", "teraz", "nyní", "teď", "acum", "artık", "şimdi", "giờ", "bây",
                                       "sekarang", "अब", "τώρα", "тепер", "теперь", "الآن", "今", "이제", "지금"})
# Copulas that verb-final languages put after the value: the value before one ends its clause.
FINAL_COPULAS: frozenset[str] = frozenset({"است", "هست", "ہے", "تھا", "है", "था", "थी", "です", "でした", "だ", "입니다", "이다",
                                          "dir", "dır", "dur", "dür", "tir", "tır", "tur", "tür",
                                          "hast", "ast"})  # Persian written in Latin letters ("… Pesteh.1991 hast")
# Sentence-final particles of Thai (polite endings): a value before one ends its clause ("… X นะคะ").
THAI_FINALS: tuple[str, ...] = ("นะคะ", "นะครับ", "ครับ", "ค่ะ", "คะ", "นะ", "จ้า", "จ้ะ")
# Thai copulas ("is", "is as"): a Thai run that ends in one joins a label to the value after it.
THAI_COPULAS: tuple[str, ...] = ("คือ", "เป็น")
# Particles glued after a label in scripts without spaces, and short function words of verb-final languages.
PARTICLES: frozenset[str] = frozenset({"は", "が", "を", "も", "に", "で", "：", "는", "은", "를", "을", "이", "가", "도",
                                       "是", "为", "為", "का", "की", "के", "को", "ko", "ni"})
# A verb of changing a password, by stem ("changed", "geändert", "cambiato", "zmieniłem", "đổi", "बदलकर"), with at most four letters of ending: after one,
# a word for "to" (TO_WORDS) joins the label to the new value ("changed the router password to X").
CHANGE_STEMS: tuple[str, ...] = (
    "chang", "reset", "updat", "set", "geändert", "geaendert", "änder", "aender", "gesetzt", "umgestellt", "changé",
    "modifié", "cambi", "puesto", "mudei", "mudou", "mudamos", "alterei", "alterou", "troquei", "trocou", "cambiat", "impostat", "messo", "veranderd",
    "gewijzigd", "wijzig", "verander", "ändrat", "ändra", "bytt", "endret", "ændret", "zmienił", "zmieni", "ustawi",
    "změnil", "změni", "nastavil", "schimbat", "schimb", "setat", "değiştir", "degistir", "yaptım", "đổi", "ganti",
    "diganti", "kuganti", "ubah", "mengubah", "変更", "変え", "바꿨", "바꾸", "변경", "غيرت", "غيّرت", "تغيير", "बदल",
    "άλλαξ", "αλλάξ", "змінив", "змінила", "змін", "изменил", "помен", "смени", "ingesteld", "gezet", "vaihdo", "megváltoztat", "改成",
    "改为", "改為", "设为", "設為", "设成", "設成", "设置为", "設置為", "设置成", "换成", "換成", "换为", "更改为", "更改為", "修改为",
    "修改為", "修改成", "更新为", "重置为",
)
TO_WORDS: frozenset[str] = frozenset({"to", "auf", "zu", "in", "en", "para", "pra", "a", "à", "naar", "till", "til",
                                      "na", "în", "thành", "jadi", "menjadi", "ke", "σε", "στο", "στον", "на", "إلى", "الى",
                                      "ل", "olarak", "→", "->", "ni", "kuwa", "za", "do", "als", "as"})
# Words for "in order to" before a sign-in verb ("um sich einzuloggen", "pour se connecter", "để đăng nhập").
PURPOSE_WORDS: frozenset[str] = frozenset({"um", "zum", "pour", "per", "om", "для", "để"})
# Verbs and nouns of signing in: a value used "to sign in" is a password with no word for one ("use X to log in",
# "usa X para entrar", "mit X einloggen", "用 X 登录"); (stem, letters an inflection may add).
LOGIN_STEMS: tuple[tuple[str, int], ...] = (
    ("log in", 0), ("log on", 0), ("login", 0), ("sign in", 0), ("signin", 0), ("log into", 0), ("sign into", 0),
    ("entrar", 0), ("acceder", 0), ("acessar", 0), ("iniciar sesión", 0), ("iniciar sesion", 0), ("fazer login", 0),
    ("logar", 0), ("einloggen", 0), ("einzuloggen", 0), ("anmelden", 0), ("anzumelden", 0), ("se connecter", 0),
    ("te connecter", 0), ("vous connecter", 0), ("accedere", 0), ("entrare", 0), ("inloggen", 0), ("aanmelden", 0),
    ("zalogować", 0), ("zalogowania", 0), ("logowania", 0), ("войти", 0), ("входа", 0), ("увійти", 0), ("входу", 0),
    ("přihlášení", 0), ("přihlásit", 0), ("giriş", 3), ("masuk", 0), ("đăng nhập", 0), ("logga in", 0), ("logge inn", 0),
    ("kirjautua", 0), ("ログイン", 0), ("登录", 0), ("登錄", 0), ("登入", 0), ("로그인", 0),
)
# "use" words before a value used to sign in.
USE_WORDS: frozenset[str] = frozenset({"use", "used", "using", "usa", "usá", "usar", "utilise", "utilisez", "utiliser",
                                       "benutze", "benutzt", "verwende", "nimm", "mit", "with", "con", "com", "avec", "usando",
                                       "gebruik", "met", "użyj", "używaj", "используй", "используйте", "введи", "введите",
                                       "з", "с", "використовуй", "použij", "kullan", "ile", "pakai", "gunakan", "dengan",
                                       "dùng", "bằng", "använd", "bruk", "käytä", "用", "使用", "を使って", "で"})
# Words that put a value before the label: "use X as the password", "X как пароль", "X というパスワード", "ككلمة مرور".
AS_MARKERS: frozenset[str] = frozenset({"as", "als", "comme", "como", "come", "jako", "ca", "som", "olarak", "sebagai",
                                        "làm", "là", "ως", "як", "как", "というパスワード", "という", "って", "로", "으로",
                                        "के", "कर", "ك"})
# A word right after the label or the copula that says no value follows ("password is not …", "kein Passwort").
NEGATIONS: frozenset[str] = frozenset({"not", "no", "never", "nicht", "kein", "keine", "pas", "jamais", "nunca",
                                       "non", "mai", "não", "niet", "geen", "nie", "ne", "nu", "inte", "ikke", "değil",
                                       "yok", "không", "tidak", "bukan", "नहीं", "ليس", "ليست", "لا", "δεν", "не", "ні"})
# Units after a number: "… 12 characters", "8 Zeichen", "6 cyfr": a length, not a PIN.
UNITS: frozenset[str] = frozenset({
    "char", "chars", "character", "characters", "digit", "digits", "letters", "symbols", "words", "zeichen", "stellen",
    "ziffern", "caractères", "caracteres", "chiffres", "dígitos", "cifras", "caratteri", "cifre", "tekens", "cijfers",
    "znaków", "znaki", "cyfr", "cyfry", "znaků", "číslic", "znaky", "caractere", "karakter", "haneli", "hane",
    "ký", "số", "angka", "tecken", "siffror", "tegn", "merkkiä", "χαρακτήρες", "ψηφία", "символів",
    "цифр", "символов", "знаков", "अक्षर", "अंक", "أحرف", "أرقام", "文字", "桁", "자", "자리", "位", "个", "days", "jours",
    "tage", "días", "giorni", "dias", "dni", "dní", "gün", "ngày", "hari", "minutes", "minuten", "minutos", "minuti",
    "seconds", "sekunden", "times", "mal", "fois", "veces", "volte", "vezes", "keer", "razy",
})
# Technical words that carry digits and are no password: hash functions, ciphers, protocols, encodings, standards.
# A value whose letters are one of these ("argon2id", "SHA-256", "WPA2", "utf-8", "oauth2") is not a secret.
TECH_WORDS: frozenset[str] = frozenset({
    "sha", "md", "argon", "argonid", "argoni", "argond", "bcrypt", "pbkdf", "pbkdfsha", "scrypt", "utf", "base", "aes",
    "aesgcm", "aescbc", "rsa", "ecdsa", "ed", "x", "wpa", "wpapsk", "wpapersonal", "wep", "ipv", "oauth", "http",
    "https", "h", "tls", "tlsv", "ssl", "sslv", "ssh", "crc", "blake", "blakeb", "blakes", "hmac", "hmacsha", "fa",
    "mfa", "totp", "hotp", "nist", "iso", "rfc", "pci", "pcidss", "cve", "owasp", "bit", "bits", "gb", "mb", "kb", "ghz",
    "mhz", "mbps", "gbps", "win", "windows", "ios", "android", "python", "py", "node", "java", "es", "ecma", "php",
    "mysql", "postgres", "postgresql", "redis", "v", "ver", "version", "rc", "beta", "alpha", "build", "api", "sdk",
    "gpt", "claude", "llama", "ax", "ac", "ieee", "usb", "hdmi", "lte", "g", "nt", "ntlm", "ntlmv", "krb",
    "kerberos", "des", "tripledes", "chacha", "poly", "chachapoly", "xchacha", "curve", "secp", "k", "p",
})
# Labels that also mean something else: Greek κωδικός is any code, Spanish clave a key idea, Italian parola a word,
# Turkish şifre a cipher, Indonesian sandi a code. After them a value must hold a lower-case letter and a digit or a
# symbol ("AX-77123", an order code, is not a password).
AMBIGUOUS: tuple[str, ...] = ("κωδικ", "clave", "ww", "losen", "lösen", "parol", "şifre", "sifre", "sandi", "код", "kod", "kód", "cod", "code",
                              "código", "codice", "mã", "رمز", "कोड", "暗号", "암호")
# Names with a digit or a symbol that follow a password's label and are not passwords: password managers and the
# like ("Password managers: 1Password at work", "**Unique Passwords**: 1Password can generate …").
NAMES: frozenset[str] = frozenset({"1password", "keepassxc", "keepass2", "keepass2android", "pass(1)", "wi-fi",
                                   "802.1x", "wpa2-personal", "wpa3-personal", "wpa2-enterprise", "e-mail"})
# Words for "and" / "but" after a comma: a new clause starts, and a value after it is another thing's
# ("Koden til porten står på sedlen, og wifi-navnet er …").
CONJUNCTIONS: frozenset[str] = frozenset({
    "and", "but", "und", "aber", "et", "mais", "y", "pero", "e", "ma", "mas", "en", "maar", "och", "men", "og", "ja",
    "i", "ale", "a", "ali", "și", "dar", "ve", "ama", "và", "nhưng", "dan", "tapi", "και", "αλλά", "и", "но", "і",
    "але", "و", "लेकिन", "और", "és", "de", "mutta", "ва",
})
# English prepositions and determiners: a value after one of them with no joining word is something else
# ("reset the password on my Pixel8Pro."); languages without a copula do not use them.
ENGLISH_LINKS: frozenset[str] = frozenset({"on", "for", "of", "to", "at", "in", "with", "from", "by", "my", "the", "our",
                                           "your", "his", "her", "their", "its", "this", "that", "via", "using"})

# Words for a code that a service's name may stand beside, as a one-time code's label: "Your Uber code: …", "WhatsApp
# code …", "Votre code Uber : …", "Seu código do iFood é …", "Kode Gojek kamu: …", "Ваш код для Яндекс Go: …".
BRAND_CODE_WORDS: tuple[str, ...] = ("code", "codes", "kode", "kod", "kód", "koodi", "código", "codigo", "codice", "cod",
                                     "код", "кода")
# Capitalised words beside "code" that name a kind of code, a language, a tool or a verb, not the service that sent it
# ("Error code 5012", "Zip code", "Promo code", "Source code", "Visual Studio Code", "Enter code"): lower case.
NOT_BRANDS: frozenset[str] = frozenset({
    "error", "status", "exit", "return", "response", "result", "fault", "reason", "event", "http", "zip", "postal", "post",
    "postcode", "area", "country", "region", "city", "dial", "phone", "calling", "airport", "station", "sort", "bank",
    "branch", "swift", "routing", "tax", "promo", "promotional", "discount", "coupon", "voucher", "gift", "referral",
    "invite", "invitation", "group", "order", "booking", "reservation", "confirmation", "tracking", "shipment", "product",
    "item", "article", "part", "model", "serial", "batch", "lot", "sku", "source", "sample", "example", "test", "demo",
    "morse", "qr", "bar", "barcode", "color", "colour", "dress", "class", "course", "program", "programme", "machine",
    "byte", "op", "hex", "html", "css", "python", "java", "javascript", "typescript", "rust", "ruby", "go", "kotlin",
    "claude", "studio", "visual", "vs", "xcode", "unicode", "ascii", "utf", "language", "locale", "currency",
    "access", "security", "secret", "pin", "door", "gate", "alarm", "safe", "lock", "unlock", "entry", "building",
    "enter", "use", "type", "scan", "redeem", "apply", "send", "get", "paste", "copy", "insert", "input", "this", "that",
    "the", "your", "my", "our", "their", "his", "her", "a", "an", "new", "old", "same", "one", "no", "any", "some",
    "verification", "activation", "authentication", "auth", "login", "sign", "sms", "otp", "mfa", "backup", "recovery",
    "ticket", "seat", "flight", "room", "table", "meeting", "game", "cheat", "level",
    "fedex", "ups", "dhl", "usps", "diagnostic", "obd", "trouble", "icd", "cpt", "hs", "naics", "iata", "icao",
    "de", "du", "do", "da", "del", "di", "der", "die", "das", "el", "la", "le", "il", "lo", "o", "para", "pour",
    "für", "for", "from", "для", "от", "від", "ваш", "твой", "votre", "ton", "tu", "seu", "sua", "tuo",
    "dein", "ihr", "uw", "je", "kamu", "anda",
})

# Words before a colon that name what follows as something other than one's password: another field (a user name, an
# account, an address, a network, a file, a ticket) or an example ("Username: …", "Beispiel: …", "Пример: …"). A value
# after such a colon is not announced as the password named before it.
NOT_ANNOUNCED: frozenset[str] = frozenset({
    "user", "username", "login", "account", "email", "e-mail", "mail", "address", "id", "name", "ssid", "network", "host",
    "hostname", "server", "url", "link", "file", "filename", "version", "model", "ticket", "order", "serial", "branch",
    "benutzer", "benutzername", "nutzer", "konto", "adresse", "netzwerk", "datei", "utilisateur", "identifiant",
    "compte", "réseau", "fichier", "usuario", "cuenta", "correo", "red", "archivo", "usuário", "conta", "rede", "arquivo",
    "utente", "nome", "gebruiker", "gebruikersnaam", "naam", "bestand", "użytkownik", "uzytkownik", "nazwa",
    "логин", "пользователь", "имя", "аккаунт", "почта", "сеть", "файл", "kullanıcı", "hesap", "användare", "bruker",
    "bruger", "käyttäjä", "felhasználó", "uživatel", "utilizator",
    "example", "examples", "e.g", "eg", "sample", "like", "such", "format", "pattern", "policy", "rule", "rules",
    "requirement", "requirements", "hint", "beispiel", "zum", "exemple", "ejemplo", "exemplo", "esempio", "voorbeeld",
    "przykład", "przyklad", "пример", "например", "örnek", "exempel", "eksempel", "esimerkki", "példa", "příklad",
})

# Words that point at a value about to be given ("Here it is:", "Le voici :", "Вот он:", "Hier ist es:"): a short clause
# holding one announces the password named before it; a short clause without one is a field's name ("Ticket:").
POINTERS: frozenset[str] = frozenset({"here", "here's", "here’s", "this", "it", "voici", "voilà", "voila", "hier", "aquí",
                                      "aqui", "acá", "ecco", "eccola", "eccolo", "вот", "ось", "oto", "tutaj", "dit",
                                      "işte", "här", "her", "tässä", "itt", "tady", "iată", "ini", "đây", "εδώ", "ここ",
                                      "これ", "这", "這", "여기", "이거"})

# Words of dictation between the chunks of a value read out in parts ("B, puis 8, 4, 0, 2", "7 then 3 then 9 …").
THEN_WORDS: frozenset[str] = frozenset({"then", "and", "puis", "et", "dann", "und", "luego", "y", "después", "poi", "e",
                                        "depois", "dan", "en", "potem", "i", "potom", "затем", "потом", "и", "sonra",
                                        "sedan", "så", "sitten", "majd", "apoi", "sau", "lalu"})

# A password described by what asks for it: "when" and a verb of asking, a program or a prompt in between ("the answer
# to give when sudo asks is …", "wenn der VPN-Client fragt, …"). (when words, asking verbs)
WHEN_WORDS: tuple[str, ...] = ("when", "whenever", "wenn", "sobald", "quand", "lorsque", "cuando", "quando", "als",
                               "wanneer", "kiedy", "gdy", "когда", "коли", "när", "når", "kun", "amikor", "când")
ASK_VERBS: tuple[str, ...] = ("asks", "prompts", "fragt", "abfragt", "demande", "pide", "pregunta", "chiede", "pede",
                              "pergunta", "vraagt", "pyta", "спрашивает", "запрашивает", "питає", "frågar", "spør",
                              "spørger", "kysyy", "kér", "cere")
# ... or by what someone types: "what" and a verb of typing ("what Franco types after his e-mail is …", "ce qu'elle
# tape au portail est …", "lo que teclea al entrar es …"). (what words, typing verbs)
WHAT_WORDS: tuple[str, ...] = ("what", "whatever", "was", "ce que", "ce qu'", "ce qu’", "lo que", "quello che", "ciò che",
                               "o que", "wat", "co", "что", "що", "vad", "hva", "hvad", "mitä", "amit", "ce")
TYPE_VERBS: tuple[str, ...] = ("types", "typed", "enters", "entered", "keys in", "punches in", "tippt", "eingibt",
                               "tape", "saisit", "teclea", "escribe", "digita", "inserisce", "typt", "intoetst",
                               "wpisuje", "wpisał", "вводит", "набирает", "вводить", "skriver", "näppäilee", "beír")

# Digits read aloud, per language, for a value dictated digit by digit ("seven, three, one, eight", "ご・なな・ろく",
# "sept, puis trois"): each word and the digit it stands for. Add a language here, not a new rule.
_DIGITS_SPOKEN: dict[str, tuple[str, ...]] = {
    "en": ("zero|oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine|niner"),
    "fr": ("zéro|zero", "un|une", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"),
    "es": ("cero", "uno|una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"),
    "pt": ("zero", "um|uma", "dois|duas", "três|tres", "quatro", "cinco", "seis|meia", "sete", "oito", "nove"),
    "it": ("zero", "uno|una", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"),
    "de": ("null", "eins|ein", "zwei|zwo", "drei", "vier", "fünf|fuenf", "sechs", "sieben", "acht", "neun"),
    "nl": ("nul", "een|één", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"),
    "pl": ("zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem", "dziewięć"),
    "ru": ("ноль|нуль", "один|раз", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"),
    "sv": ("noll", "ett|en", "två", "tre", "fyra", "fem", "sex", "sju", "åtta", "nio"),
    "tr": ("sıfır", "bir", "iki", "üç", "dört", "beş", "altı", "yedi", "sekiz", "dokuz"),
    "ja": ("ゼロ|ぜろ|れい|まる", "いち", "に", "さん", "よん|し", "ご", "ろく", "なな|しち", "はち", "きゅう|く"),
    "zh": ("零|〇", "一|幺", "二|两", "三", "四", "五", "六", "七", "八", "九"),
    "ko": ("공|영", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"),
    "vi": ("không|linh", "một|mốt", "hai", "ba", "bốn|tư", "năm|lăm", "sáu", "bảy", "tám", "chín"),
    "el": ("μηδέν|μηδεν", "ένα|ενα|μία|μια", "δύο|δυο", "τρία|τρια", "τέσσερα|τεσσερα", "πέντε|πεντε", "έξι|εξι",
           "επτά|εφτά|επτα|εφτα", "οκτώ|οχτώ|οκτω|οχτω", "εννέα|εννιά|εννεα|εννια"),
    "uk": ("нуль", "один|одна", "два|дві", "три", "чотири", "п'ять|п’ять", "шість", "сім", "вісім", "дев'ять|дев’ять"),
    "ro": ("zero", "unu|una", "doi|două|doua", "trei", "patru", "cinci", "șase|şase|sase", "șapte|şapte|sapte", "opt",
           "nouă|noua"),
    "cs": ("nula", "jedna", "dva|dvě", "tři", "čtyři", "pět", "šest", "sedm", "osm", "devět"),
    "hu": ("nulla", "egy", "kettő|ketto", "három", "négy", "öt", "hat", "hét", "nyolc", "kilenc"),
    "fi": ("nolla", "yksi", "kaksi", "kolme", "neljä", "viisi", "kuusi", "seitsemän", "kahdeksan", "yhdeksän"),
    "id": ("nol", "satu", "dua", "tiga", "empat", "", "enam", "tujuh", "delapan", "sembilan"),
    "hi": ("शून्य", "एक", "दो", "तीन", "चार", "पांच|पाँच", "छह|छः", "सात", "आठ", "नौ"),
    "bn": ("শূন্য", "এক", "দুই", "তিন", "চার", "পাঁচ", "ছয়|ছয়", "সাত", "আট", "নয়|নয়"),
    "ar": ("صفر", "واحد", "اثنان|اثنين", "ثلاثة", "أربعة|اربعة", "خمسة", "ستة", "سبعة", "ثمانية", "تسعة"),
    "fa": ("صفر", "یک", "دو", "سه", "چهار", "پنج", "شش", "هفت", "هشت", "نه"),
    "he": ("אפס", "אחת|אחד", "שתיים|שתים|שניים", "שלוש|שלושה", "ארבע|ארבעה", "חמש|חמישה", "שש|שישה", "שבע|שבעה",
           "שמונה", "תשע|תשעה"),
    "tl": ("sero", "isa", "dalawa", "tatlo", "apat", "", "anim", "pito", "walo", "siyam"),
}
# (Indonesian and Tagalog "lima", 5, is left out: it is the spelling alphabet's L.)
SPOKEN_DIGITS: dict[str, str] = {w: str(d) for words in _DIGITS_SPOKEN.values() for d, ws in enumerate(words)
                                 for w in ws.split("|") if w}
# A keypad's keys read aloud ("… eight nine star"): each word and the key it stands for.
SPOKEN_KEYS: dict[str, str] = {"star": "*", "hash": "#", "pound": "#", "étoile": "*", "dièse": "#", "estrella": "*",
                               "asterisco": "*", "almohadilla": "#", "stern": "*", "raute": "#", "звёздочка": "*",
                               "звездочка": "*", "решётка": "#", "решетка": "#", "зірочка": "*", "ґратка": "#"}
# The spelling alphabet (ICAO/NATO) a letter is dictated with ("bravo, kilo"): each word and its letter.
SPELLING_ALPHABET: dict[str, str] = {w: w[0] for w in (
    "alfa", "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "juliet", "kilo",
    "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
    "xray", "x-ray", "yankee", "zulu")}

# A verb of opening, by stem, and the words for "with" after it: a code after "opens with" is what opens the lock
# ("the key safe opens with …", "der Tresor öffnet mit …", "la boîte s'ouvre avec …", "el candado se abre con …").
OPEN_STEMS: tuple[str, ...] = ("open", "unlock", "öffn", "oeffn", "entsperr", "ouvr", "déverrouill", "abre", "abri",
                               "apre", "apri", "sblocc", "opent", "ontgrendel", "otwiera", "otwórz", "открыва", "открой",
                               "отпира", "öppna", "åpne", "åbne", "avaa", "nyit", "açıl", "aç", "mở", "buka")
WITH_WORDS: frozenset[str] = frozenset({"with", "using", "mit", "avec", "con", "com", "met", "z", "kodem", "с", "med",
                                        "ile", "bằng", "dengan", "by"})

# Words beside a word for a code that name a kind of code which opens nothing: a postal, area or country code, an
# error, a promotion, a parcel's tracking, a booking, an order ("Código postal del portal: …", "the zip code of the
# building is …", "code de suivi"). A number after such a code is no lock's code, whatever lock is named near it.
OTHER_CODES: frozenset[str] = frozenset({
    "postal", "postale", "zip", "post", "postcode", "area", "country", "dial", "dialling", "dialing", "error", "status",
    "exit", "promo", "promotional", "discount", "coupon", "voucher", "gift", "referral", "tracking", "booking",
    "reservation", "order", "product", "source", "qr", "bar", "color", "colour", "dress", "tax", "sort", "swift",
    "routing", "iata", "icao", "airport", "zone", "fiscal", "descuento", "rastreo", "seguimiento", "reserva", "pedido",
    "área", "país", "erro", "rastreamento", "desconto", "suivi", "réservation", "commande", "réduction", "erreur",
    "avviamento", "sconto", "prenotazione", "ordine", "errore", "fiscale", "tracciamento", "plz", "gutschein",
    "rabatt", "fehler", "sendungsnummer", "buchung", "bestellung", "vorwahl", "kortingscode", "foutcode",
    "pocztowy", "rabatowy", "błędu", "почтовый", "промокод", "ошибки", "отслеживания", "posta", "indirim", "hata",
})

