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

__all__ = ["COPULAS", "DETS", "LANGS", "NOUNS", "POSSESSIVES_AFTER", "PREPS", "UNSPACED", "alternation", "spaced", "unspaced"]


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
UNSPACED = re.compile(r"[\u0E00-\u0E7F\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF]")


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
