"""Concepts of an instruction, read in many languages: what a text asks, of whom, and how.

The intent classifier's character n-grams carry intent across languages only as far as the languages
share letters: "lösche alle Mails" and "удали все письма" share none. This module reads a text into a
few language-free concepts (an AI reader, sending, deleting, revealing, a system prompt, the user in the
third person, the writer in the first person, a time scope, concealment, ...), each from a word table in
25 languages, and `concept_features` turns them into features: each concept and each pair of concepts
present. The pairs matter: "an AI reader + send + a destination + conceal" is an injection in any
language, "an AI reader + the first person + a time scope + a style" is the user's own preference. The
classifier learns every weight (benchmarks/train_intent.py); nothing here refuses a text.

Matching is cheap (dictionary look-ups, no regex alternation): a word of a spaced script matches a stem
that begins it (stems of three letters or fewer, and those written with a trailing "$", only the whole
word; a trailing "*" makes a short stem match by its beginning too: Hindi's "भेज*" is "भेजो", "भेजें"); phrases match word by word, their last word by its beginning; Chinese, Japanese, Korean and Thai
match as substrings. Stems are normalised as the screen normalises text (engram.safety.views.base).
"""

from __future__ import annotations

import functools
import itertools
import re

from engram.language.normalise import UNSPACED_SCRIPTS
from engram.safety.views import base

__all__ = ["ALONE", "CONCEPTS", "PAIRED_ONLY", "PAIRS", "concept_features", "concepts"]

# concept -> stems (several languages each; the comment on a line names them).
_TABLE: dict[str, tuple[str, ...]] = {
    "reader": (
        "model", "models$", "bot", "bots", "chatbot", "ai", "a.i$", "llm", "llms", "assistant", "agent", "claude", "chatgpt",
        "gpt", "gemini", "copilot", "llama", "mistral", "language model", "summariser", "summarizer", "whoever$",
        "anyone reading", "future you",
        "modelo", "asistente", "ia", "agente", "robot", "quien lea",  # es pt
        "modell", "ki", "sprachmodell", "assistent", "wer das liest", "wer dies liest",  # de sv nl
        "modele", "assistant", "l'ia", "agent",  # fr
        "assistente", "modello",  # it pt
        "модел", "бот", "ии", "нейросет", "ассистент", "агент", "асистент", "помощник",  # ru uk
        "model", "asysten", "yapay zeka", "asistan", "model", "assistent", "tro ly", "mo hinh", "asisten",
        "asistentule", "asistente", "μοντελο", "βοηθ", "עוזר", "לעוזר", "מודל", "دستیار", "مساعد", "المساعد", "النموذج",
        "الذكاء الاصطناعي", "मॉडल", "सहायक", "एआई",
        "模型", "助手", "助理", "机器人", "機器人", "智能体", "人工智能", "アシスタント", "モデル", "ボット", "エージェント",
        "어시스턴트", "에이전트", "챗봇", "모델", "ผู้ช่วย", "โมเดล", "ai",
        # pl pt ar hi tr vi ja ko
        "bota", "botem", "botowi", "czatbot", "sztuczna inteligencja", "sztucznej inteligencji",  # pl
        "robo$", "robozinho", "inteligencia artificial",  # pt
        "botu", "botun", "ajan", "tac tu", "tri tue nhan tao", "وكيل", "روبوت", "بوت", "نموذج", "الآلي",
        "ذكاء اصطناعي", "एजेंट", "बॉट", "चैटबॉट", "असिस्टेंट", "कृत्रिम बुद्धि", "人工知能", "비서", "인공지능", "봇",
    ),
    "future": (
        "from now on", "going forward", "henceforth", "hereafter", "next time", "next session", "later session",
        "future session", "every session", "all future", "from the next", "starting next", "in future", "from here on",
        "a partir de ahora", "de ahora en adelante", "la proxima", "en adelante", "a partir de la proxima",  # es
        "ab sofort", "ab jetzt", "von nun an", "kunftig", "fortan", "in zukunft", "nachste mal", "nachsten sitzung",  # de
        "desormais", "dorenavant", "a l'avenir", "a partir de maintenant", "la prochaine",  # fr
        "de agora em diante", "a partir de agora", "da proxima",  # pt
        "d'ora in poi", "d'ora in avanti", "da ora", "da adesso", "da questo momento", "in futuro",  # it
        "с этого момента", "с этой минуты", "отныне", "впредь", "в будущем", "в следующ", "теперь всегда",  # ru
        "відтепер", "надалі", "з цього моменту",  # uk
        "vanaf nu", "voortaan", "od teraz", "od nastepnej", "od tej pory", "bundan sonra", "bundan boyle",  # nl pl tr
        "tu gio", "mulai sekarang", "fran och med nu", "framover", "od ted", "από εδω και περα", "στο εξης",
        "de acum", "מעכשיו", "מהיום", "از این به بعد", "من الآن", "من الان", "فصاعدا", "अब से", "आगे से",
        "以后", "以後", "今后", "從現在", "从现在", "下次", "今後", "次回", "これから", "앞으로", "다음부터", "이제부터",
        "ต่อจากนี้", "ต่อไป",
        # pl pt ar hi tr vi ja ko
        "every future", "later sessions", "permanently", "in every later", "daqui pra frente", "daqui para frente",
        "em todas as conversas", "nas proximas", "w kazdej", "kazdej przyszlej", "na stale", "na zawsze",
        "في كل محادثة", "بشكل دائم", "हमेशा के लिए", "आगे के सभी", "हर बार", "her sohbette", "her oturum",
        "kalici olarak", "tu nay", "ve sau", "moi lan", "以降", "毎回", "すべての会話", "매번", "영구적",
        # id affixed forms, later sessions named without "future"
        "berikutnya", "selanjutnya", "seterusnya", "ke depannya", "any future", "all later", "later chats",
        "later conversations", "subsequent", "prochaines sessions", "prochaines conversations", "prossime sessioni",
        "prossime conversazioni",
    ),
    "send": (
        "forward", "send", "upload", "transmit", "exfiltrat", "leak", "post it", "share it", "bcc", "cc",
        "envia", "reenvia", "manda", "comparte", "sube",  # es
        "sende", "schick", "leite", "weiterleit", "ubermittel", "ubertrag", "lade hoch",  # de
        "envoie", "transfere", "transmets", "partage", "televerse",  # fr
        "envie", "encaminh", "compartilh", "mande",  # pt
        "invia", "inoltra", "condividi", "carica",  # it
        "отправ", "перешл", "пересыл", "передай", "загрузи", "вышли", "скинь", "надішл", "відправ", "надсила",  # ru uk
        "stuur", "verstuur", "doorsturen", "wyslij", "wysylaj", "przekaz", "przeslij", "gonder", "ilet$", "iletin", "iletsin", "yolla",
        "gui", "chuyen tiep", "kirim", "teruskan", "skicka", "vidarebefordra", "posli", "preposli", "trimite",
        "στειλε", "στελνε", "προωθ", "שלח", "תשלח", "העבר", "בفرست", "بفرست", "ارسال", "أرسل", "ارسل",
        "भेज*", "फॉरवर्ड",
        "发送", "发给", "发到", "转发", "上传", "传到", "寄给", "送信", "転送", "送って", "送れ", "アップロード",
        "전송", "보내", "전달", "업로드", "ส่ง",
        # pl pt ar hi tr vi ja ko
        "wysyl", "udostepnij", "przesylaj", "wrzuc", "repasse", "transfira", "انشر", "شارك", "ارفع", "ارفق",
        "अपलोड", "साझा", "शेयर", "tai len", "chia se", "共有", "送付", "공유",
        # id: the meN- and di- forms of the verbs (mengirim, diteruskan), uk
        "mengirim", "dikirim", "meneruskan", "diteruskan", "membagikan", "dibagikan", "mengunggah", "diunggah",
        "unggah", "bagikan",
    ),
    "delete": (
        "delete", "erase", "wipe", "purge", "clear all", "clear the", "remove all", "forget", "overwrite",
        "borra", "elimina", "olvida", "suprim",  # es
        "losch", "vergiss", "entfern", "uberschreib",  # de
        "supprim", "efface", "oublie",  # fr
        "apag", "exclu", "esquec",  # pt
        "cancella", "dimentica",  # it
        "удали", "удаля", "сотри", "стира", "забуд", "очист", "видали", "зітри", "забудь",  # ru uk
        "verwijder", "wis$", "vergeet", "usun", "skasuj", "zapomnij", "sil$", "silin", "unut", "xoa", "quen",
        "hapus", "lupakan", "radera", "glom", "smaz", "vymaz", "zapomen", "sterge", "uita",
        "διαγραψ", "διαγραφ", "ξεχασ", "מחק", "תמחק", "שכח", "پاک", "حذف", "احذف", "امسح", "انس$",
        "हटा*", "मिटा", "डिलीट",
        "删除", "删掉", "清空", "清除", "忘记", "忘掉", "抹去", "削除", "消去", "消して", "忘れ", "삭제", "지워", "잊어", "ลบ",
        # pl pt ar hi tr vi ja ko
        "wymaz", "wyczysc", "remova", "limpe", "ازل*", "محو", "silsin", "siliniz",
        "menghapus", "dihapus", "melupakan", "dilupakan", "membuang",  # id
        "start over", "from scratch",  # wiping a store and beginning again
    ),
    "reveal": (
        "reveal", "print", "output", "display", "dump", "repeat your", "paste", "disclose", "show me your", "show the",
        "revela", "muestra", "imprime", "ensena", "pega",  # es
        "zeig", "verrat", "gib aus", "offenleg", "ausgeben", "druck",  # de
        "revele", "affiche", "montre", "divulgu", "colle",  # fr pt
        "mostr", "exib", "rivela", "stampa", "incolla",  # pt it
        "покажи", "показыва", "выведи", "выводи", "раскрой", "напечата", "вставь", "виведи", "розкрий",  # ru uk
        "toon", "onthul", "pokaz", "wypisz", "ujawnij", "goster", "yazdir", "acikla", "hien thi", "tiet lo", "tampilkan",
        "tunjukkan", "ungkapkan", "visa", "avsloj", "ukaz", "zobraz", "prozrad", "arata", "dezvalui",
        "δειξε", "εμφανισ", "αποκαλυψ", "הצג", "תחשוף", "הראה", "نشان", "اعرض", "اكشف", "اطبع", "أظهر", "اظهر",
        "दिखा", "छाप*", "प्रकट",
        "输出", "显示", "泄露", "透露", "打印", "展示", "表示", "出力", "見せ", "開示", "보여", "출력", "공개", "แสดง", "เปิดเผย",
        # pl pt ar hi tr vi ja ko
        "wklej", "podaj", "cole$", "انسخ", "الصق", "खुलासा", "paylas", "in ra", "貼り", "書き出", "붙여",
        "menampilkan", "ditampilkan", "mengungkap", "diungkap", "membocorkan", "bocorkan", "mencetak", "cetak$",  # id
    ),
    "prompt": (
        "system prompt", "system message", "prompt", "hidden instructions", "internal instructions", "configuration",
        "your instructions", "initial instructions",
        "prompt de sistema", "instrucciones internas", "instrucciones ocultas",  # es
        "systemprompt", "systemanweisung", "systemnachricht",  # de
        "prompt systeme", "consignes internes", "instructions cachees",  # fr
        "instrucoes internas", "prompt di sistema", "istruzioni interne", "regole nascoste", "regras ocultas",  # pt it
        "системн", "промпт", "скрыт", "системн",  # ru uk
        "systeemprompt", "prompt systemow", "sistem istem", "prompt sistem", "systemprompt", "systemovy prompt",
        "μηνυμα συστηματ", "הנחיות המערכת", "פרומפט", "پرامپت", "موجه النظام", "موجّه", "सिस्टम प्रॉम्प्ट", "प्रॉम्प्ट",
        "系统提示", "系統提示", "提示词", "提示詞", "システムプロンプト", "プロンプト", "시스템 프롬프트", "프롬프트", "พรอมต์",
        # pl pt ar hi tr vi ja ko
        "تعليمات النظام", "تعليمات مخفية", "प्रणाली निर्देश", "छिपे निर्देश", "ukryte instrukcje", "instrucoes ocultas",
        "prompt do sistema", "gizli talimat", "huong dan an", "隠し指示", "숨겨진 지시",
    ),
    "rules": (
        "rules", "instructions", "guidelines", "restrictions", "policies", "filters", "safety", "guardrail", "limits",
        "reglas", "instrucciones", "restricciones", "filtros", "seguridad",  # es
        "regeln", "anweisungen", "einschrankung", "filter", "sicherheit", "richtlinie",  # de
        "regles", "consignes", "restriction", "securite",  # fr
        "regras", "instruc", "restric", "seguranca", "regole", "istruzioni", "restrizion", "sicurezza",  # pt it
        "правил", "инструкц", "ограничен", "фильтр", "безопасн", "інструкц", "обмежен",  # ru uk
        "regels", "instructies", "beperking", "veiligheid", "zasad", "regul", "instrukcj", "ogranicz", "kural",
        "talimat", "kisitlama", "guvenlik", "quy tac", "huong dan", "aturan", "instruksi", "regler", "instruktion",
        "pravidl", "instrukc", "reguli", "κανον", "οδηγι", "הוראות", "כללים", "دستورالعمل", "قوانین", "تعليمات",
        "قواعد", "قيود", "امان", "الحماية", "नियम", "निर्देश", "प्रतिबंध",
        "规则", "規則", "指令", "限制", "安全", "ルール", "指示", "制限", "규칙", "지침", "지시", "제한", "안전", "กฎ", "คำสั่ง",
    ),
    "ignore": (
        "ignore", "disregard", "override", "bypass", "skip", "disable", "turn off", "no longer apply", "revoked",
        "suspended", "lifted", "void",
        "ignora", "omite", "salta", "desactiva",  # es it
        "ignorier", "umgeh", "missacht", "uberspring", "deaktivier", "ausser kraft", "aufgehoben",  # de
        "contourne", "desactive", "annule",  # fr
        "ignore", "desativ", "disattiv", "sospes", "revocat",  # pt it
        "игнорир", "обойди", "отключ", "пропуск", "отменен", "игнор", "вимкн", "скасован",  # ru uk
        "negeer", "omzeil", "schakel", "ingetrokken", "zignoruj", "ignoruj", "pomin", "wylacz$", "wylaczyc", "wylaczcie", "wylaczaj", "yok say", "gormezden",
        "devre disi", "bo qua", "phot lo", "abaikan", "lewati", "ignorera", "strunta", "ignoruj", "preskoc", "ignora",
        "ocoleste", "αγνοησ", "παρακαμψ", "התעלם", "תתעלם", "עקוף", "نادیده", "تجاهل", "تخط*", "عطل",
        "अनदेखा", "नजरअंदाज", "बायपास",
        "忽略", "无视", "無視", "绕过", "繞過", "跳过", "回避", "スキップ", "無効", "무시", "우회", "건너뛰", "해제", "เพิกเฉย", "ละเว้น",
        # pl pt ar hi tr vi ja ko
        "desconsider", "nie stosuj", "pomijaj", "تجاوز", "नज़रअंदाज़", "bo qua",
        "mengabaikan", "diabaikan", "melewati", "menonaktifkan", "nonaktifkan",  # id
        # never refusing: the refusal itself set aside
        "never refuse", "don't refuse", "do not refuse", "no rechaces", "nunca rechaces", "ne refuse jamais",
        "ne refuse rien", "lehne nie", "lehne nichts", "non rifiutare", "nao recuse", "nunca recuse", "не отказывай",
        "nie odmawiaj", "asla reddetme", "jangan menolak", "đung tu choi", "dung tu choi",
    ),
    "conceal": (
        "don't tell", "do not tell", "without telling", "don't mention", "do not mention", "never mention", "secretly",
        "quietly", "silently", "keep this secret", "keep it secret", "leave this note out", "not to be told",
        "no le digas", "no digas", "sin avisar", "sin decir", "no menciones", "en secreto", "a escondidas",  # es
        "sag nichts", "nicht erwahnen", "verschweig", "heimlich", "ohne es", "ohne ihm", "ohne ihr",  # de
        "ne dis pas", "ne lui dis", "sans prevenir", "sans le dire", "ne mentionne", "en secret",  # fr
        "nao conte", "nao diga", "sem avisar", "em segredo", "non dire", "non dirl", "non menzionare", "senza avvisare",
        "di nascosto",
        "не говори", "не сообщай", "ничего не говори", "не упоминай", "тайно", "скрытно", "не кажи", "не повідомляй",
        "niet vertellen", "zeg niets", "niet vermelden", "stilletjes", "nie mow", "nic mu nie", "nie wspominaj",
        "po cichu", "w tajemnicy", "soyleme", "bahsetme", "gizli", "dung noi", "bi mat", "jangan beri tahu",
        "diam diam", "utan att saga", "beratta inte", "i hemlighet", "nerikej", "tajne", "nu-i spune", "nu i spune",
        "in secret", "μην του", "μην το", "κρυφα", "אל תספר", "אל תגיד", "בסוד", "نگو", "مخفی", "لا تخبر", "لا تذكر",
        "سرا", "دون علم", "मत बता", "छिपा", "चुपके",
        "不要告诉", "別告訴", "别告诉", "不要透露", "不要提", "保密", "悄悄", "伝えない", "言わない", "秘密", "内緒", "黙って",
        "말하지", "알리지", "비밀", "อย่าบอก", "แอบ",
        # pl pt ar hi tr vi ja ko
        "sem comentar", "nao mencione", "nao informe", "sem que ele", "sem que ela", "nie informuj", "ukryj", "ukrywaj",
        "bez wiedzy", "لا تعلم", "دون إخبار", "بدون علم", "لا تبلغ", "न बता", "बिना बताए", "bildirme", "haber verme",
        "belirtme", "khong bao", "dung bao", "触れない", "知らせない", "言及しない", "숨겨", "언급하지",
        # "without mentioning it", "say nothing" in the Romance languages
        "sin mencionarlo", "sin mencionar", "sans le mentionner", "sans le dire", "ne dis rien", "ne rien dire",
        "sans rien dire", "senza dirlo", "senza menzionar", "non dire nulla", "sem mencionar", "sem dizer nada",
        "without mentioning", "say nothing", "tell no one",
    ),
    "noconfirm": (
        "without asking", "without confirmation", "without checking", "without review", "no confirmation",
        "needs no confirmation", "automatically", "auto-approve", "without a prompt",
        "sin preguntar", "sin confirmacion", "sin revisar", "automaticamente",  # es pt
        "ohne ruckfrage", "ohne bestatigung", "ohne zu fragen", "ohne prufung", "automatisch",  # de
        "sans confirmation", "sans demander", "sans verifier", "automatiquement",  # fr
        "sem confirmacao", "sem perguntar", "senza conferma", "senza chiedere", "senza controll",  # pt it
        "без подтвержд", "без вопрос", "не спрашивая", "автоматически", "без перевірк", "без підтвердж",  # ru uk
        "zonder bevestiging", "zonder te vragen", "bez pytania", "bez potwierdzenia", "automatycznie", "onay almadan",
        "sormadan", "otomatik", "khong hoi", "tanpa konfirmasi", "utan att fraga", "bez potvrzeni", "fara confirmare",
        "χωρις επιβεβαιωση", "ללא אישור", "بدون تایید", "دون تأكيد", "بدون تأكيد", "تلقائي", "बिना पूछे", "बिना पुष्टि",
        "无需确认", "不用确认", "不要确认", "自动", "確認なし", "確認せず", "自動", "확인 없이", "묻지 말고", "자동", "โดยไม่ถาม",
        # pl pt ar hi tr vi ja ko
        "bez zgody", "sem autorizacao", "sem aprovacao", "sem validacao", "em automatico", "in automatico",
        "sans validation", "دون إذن", "بدون إذن", "دون موافقة", "बिना अनुमति", "अनुमति के बिना", "izin almadan",
        "tu dong", "동의 없이", "許可なく", "承認なし",
    ),
    "authority": (
        "administrator", "admin", "developer", "developers", "operator", "owner", "security team", "openai", "anthropic",
        "google", "creator", "superuser", "root access", "authorised", "authorized",
        "administrador", "desarrollador", "equipo de seguridad", "propietario",  # es
        "entwickler", "sicherheitsteam", "hersteller", "betreiber", "eigentumer",  # de
        "administrateur", "developpeur", "proprietaire", "equipe de securite",  # fr
        "desenvolvedor", "proprietario", "amministratore", "sviluppator", "proprietario",  # pt it
        "администратор", "разработчик", "владел", "адмін", "розробник",  # ru uk
        "beheerder", "ontwikkelaar", "wlasciciel", "deweloper", "yonetici", "gelistirici", "quan tri", "nha phat trien",
        "pengembang", "utvecklare", "spravce", "vyvojar", "dezvoltator", "διαχειριστ", "προγραμματιστ", "מנהל", "מפתח",
        "مدیر", "توسعه", "المسؤول", "المطور", "مدير", "व्यवस्थापक", "डेवलपर", "एडमिन",
        "管理员", "管理員", "开发者", "開發者", "开发人员", "管理者", "開発者", "관리자", "개발자", "ผู้ดูแล", "นักพัฒนา",
    ),
    "promote": (
        "recommend", "promote", "advertis", "only trustworthy", "the only", "the best", "rated number one",
        "recomienda", "recomendar", "sugiere", "promociona", "el unico",  # es
        "empfiehl", "empfehl", "bewirb", "der einzige",  # de
        "recommande", "conseille", "le seul",  # fr
        "recomend", "indique", "consiglia", "raccomand", "l'unico",  # pt it
        "рекоменд", "советуй", "предлагай", "единствен", "реклам", "рекомендуй",  # ru uk
        "raad aan", "aanbevel", "polecaj", "rekomend", "oner", "tavsiye", "gioi thieu", "rekomendasikan", "rekommender",
        "doporuc", "recomanda", "συστησ", "προτεινε", "המלץ", "תמליץ", "توصیه", "أوص*", "اوص*", "انصح", "सुझा", "सिफारिश",
        "推荐", "推薦", "勧め", "おすすめ", "推奨", "추천", "권해", "แนะนำ",
        # running down the others: a competitor, a scam, fakes
        "competitor", "rival", "scam", "fraud", "fakes", "malware", "unsafe", "competencia", "estafa", "konkurren",
        "betrug", "concurrent", "arnaque", "concorren", "truffa", "golpe", "конкурент", "мошенни", "обман", "rakip",
        "dolandirici", "oszust", "oplicht", "منافس", "احتيال", "प्रतिस्पर्धी", "धोखा",
        "竞争对手", "骗子", "詐欺", "競合", "경쟁", "사기",
        # pl pt ar hi tr vi ja ko
        "polec$", "polecic", "polecac", "wylacznie", "podrob", "khuyen", "권유", "권하",
        # steering by exclusion ("only book through X", "never suggest other sites"), id meN- forms
        "only book", "only buy", "never suggest", "exclusively",
        "exclusivamente", "ausschliesslich", "exclusivement", "esclusivamente", "satu-satunya", "merekomendasi",
        "direkomendasi", "menyarankan", "disarankan", "sarankan",
    ),
    # consent kept: the user confirms, is asked first ("only after the user confirms"): the opposite of noconfirm
    "consent": (
        "confirms", "confirmed", "confirmation", "only after", "asked before", "ask me before", "ask first",
        "with permission", "approves", "approval", "clicks confirm", "con confirmacion", "antes de", "nach bestatigung",
        "erst nach", "apres confirmation", "avant de", "apos confirmacao", "dopo conferma", "после подтвержд",
        "только после", "спроси меня", "确认后", "先问我", "確認してから", "확인 후", "بعد التأكيد", "पुष्टि के बाद",
        "onayla", "po potwierdzeniu", "na bevestiging", "sau khi xac nhan", "setelah konfirmasi",
    ),
    # the user's wish reported ("the user wants ...", "asked the assistant to ..."): a preference, no order
    "wish": (
        "wants", "would like", "prefers", "likes", "asked", "told", "quiere", "prefiere", "pidio", "le gusta", "mochte",
        "bevorzugt", "will$", "wollte", "bat$", "veut", "prefere", "souhaite", "a demande", "quer$", "pediu", "gosta",
        "vuole", "preferisce", "ha chiesto", "хочет", "предпочитает", "просит", "попросил", "хоче", "wil$", "wilt",
        "wenst", "chce", "woli", "prosi", "istiyor", "tercih", "muon", "ingin", "vill$", "vrea", "θελει", "רוצה",
        "میخواهد", "می خواهد", "يريد", "تريد", "يفضل", "चाहता", "चाहती", "पसंद",
        "想要", "希望", "喜欢", "喜歡", "望んで", "好み", "원한다", "원해", "선호", "ต้องการ",
        # "I asked (the assistant to ...)": the user's request reported
        "pedi$", "le pedi", "gebeten", "j'ai demande", "ho chiesto", "просил", "попросив", "poprosil", "prosilem",
        "prosila", "vroeg", "gevraagd", "istedim", "rica ettim", "bad$", "bat den", "頼んだ", "お願いした", "부탁했",
        "طلبت", "कहा था", "让它", "让助手", "请助手",
    ),
    "user": (
        "the user", "user", "the customer", "usuario", "usuaria", "nutzer", "benutzer", "utilisateur", "usuario",
        "utente", "пользовател", "користувач", "gebruiker", "uzytkownik", "kullanici", "nguoi dung", "pengguna", "anvandare",
        "uzivatel", "utilizator", "χρηστη", "המשתמש", "کاربر", "المستخدم", "उपयोगकर्ता", "यूजर",
        "用户", "用戶", "ユーザー", "利用者", "사용자", "ผู้ใช้",
        # pl pt ar hi tr vi ja ko
        "مستخدم",
    ),
    "self": (
        "i", "i'm", "i've", "me", "my", "mine", "myself",
        "yo", "mi$", "mis$", "conmigo", "ich", "mir", "mich", "mein", "meine", "je", "moi", "mon", "ma", "mes",
        "eu", "meu", "minha", "io", "mio", "mia", "я", "мне", "меня", "мой", "моя", "мои", "мені", "мене", "мій",
        "ik", "mij", "mijn", "ja", "mnie", "moj", "moja", "ben", "bana", "benim", "toi", "minh", "saya", "aku", "jag", "mig",
        "εγω", "μου", "אני", "שלי", "من", "مرا", "أنا", "انا", "मैं", "मुझे", "मेरा", "मेरी", "मेरे",
        "我", "私", "僕", "俺", "나는", "내가", "저는", "제가", "ฉัน", "ผม",
    ),
    # the reader spoken to in the second person ("you", "your", "tu", "dein", "твой", "你"): with an action and no
    # first person, an order to the reader; with the first person, usually the user's own request
    "you": (
        "you", "your", "yours", "yourself", "u$", "tu$", "te$", "ti$", "tus$", "usted", "du$", "dich", "dir$", "dein",
        "deine", "deinen", "deiner", "toi", "ton$", "ta$", "tes$", "vous", "votre", "vos$", "voce", "seu$", "sua$", "tuo$",
        "tua$", "tuoi", "ты", "тебя", "тебе", "твой", "твои", "твоя", "твоё", "твое", "вы", "ваш", "ваши", "тобі", "твій",
        "jij", "jouw", "je$", "jou$", "sen$", "sana", "senin", "ty$", "ci$", "twoj", "twoje", "ban$", "kamu", "anda",
        "dig$", "din$", "dina", "tvuj", "tve", "εσυ", "σου", "σας", "אתה", "שלך", "تو$", "شما", "أنت", "انت", "تم$", "तुम",
        "आप", "तुम्हारा", "तुम्हें", "आपका",
        "你", "您", "あなた", "君", "당신", "너", "네가", "คุณ",
    ),
    "request": (
        "can you", "could you", "would you", "help me", "can u", "please help", "puedes", "podrias", "me ayudas",
        "ayudame", "kannst du", "konntest du", "hilf mir", "peux-tu", "pourrais-tu", "aide-moi", "pode me", "poderia",
        "me ajuda", "puoi", "potresti", "aiutami", "можешь", "помоги", "можеш", "допоможи", "kun je", "kan je",
        "mozesz", "pomoz", "yardim eder", "co the giup", "bisakah", "kan du", "muzes", "poti sa", "μπορεις", "אתה יכול",
        "میتونی", "هل يمكنك", "ساعدني", "क्या तुम", "मदद कर",
        "能帮我", "可以帮我", "帮我", "你能", "手伝って", "もらえますか", "도와줘", "도와줄", "줄래", "ช่วย",
        # pl pt ar hi tr vi ja ko
        "voce pode", "क्या आप", "misin$", "musun$", "ban co the", "してくれる", "くれますか",
    ),
    "report": (
        "reported", "found a", "article", "attack", "injection", "pentest", "red team", "example", "phishing", "flagged",
        "researcher", "training", "detector", "someone posted", "hidden line", "said", "wrote", "dijo", "sagte", "a dit",
        "disse", "сказал", "написал",
        "ataque", "inyeccion", "articulo", "ejemplo", "encontre", "reporte",  # es
        "angriff", "schulung", "artikel", "beispiel", "gemeldet", "gefunden",  # de
        "attaque", "exemple", "signale", "piege",  # fr
        "injecao", "artigo", "attacco", "iniezione", "articolo", "esempio",  # pt it
        "атак", "инъекц", "стать", "пример", "нашли", "читал", "атак",  # ru uk
        "aanval", "voorbeeld", "atak", "przyklad", "saldiri", "ornek", "tan cong", "serangan", "angrepp", "utok",
        "επιθεσ", "מתקפה", "حمله", "هجوم", "مثال", "हमला", "उदाहरण",
        "攻击", "攻擊", "注入", "文章", "例子", "发现", "発見", "攻撃", "インジェクション", "記事", "공격", "인젝션", "기사", "โจมตี",
        # pl pt ar hi tr vi ja ko
        "treinamento", "szkolenie", "artykul", "مقال", "تدريب", "حقن", "प्रशिक्षण", "लेख", "egitim", "makale",
        "bai bao", "dao tao",
        # a write-up, a talk, a report in the thinner languages
        "write-up", "rapor", "sunum", "laporan", "contoh", "звіт", "приклад", "raport", "prezentac", "تقرير", "مثالا",
        "bao cao", "vi du", "보고서", "사례", "報告", "事例", "報告書", "रिपोर्ट",
    ),
    "data": (
        "conversation", "chat history", "history", "emails", "e-mails", "inbox", "messages", "contacts", "contact list",
        "files", "notes", "credentials", "passwords", "card number", "card details", ".env", "ssh", "secrets",
        "conversacion", "historial", "correos", "mensajes", "contactos",  # es
        "verlauf", "mails", "nachrichten", "kontakte", "postfach", "kontodaten",  # de
        "historique", "courriels", "contacts",  # fr
        "historico", "conversas", "mensagens", "cronologia", "messaggi", "fatture",  # pt it
        "истори", "переписк", "письма", "сообщени", "контакт", "данные", "історі", "листи",  # ru uk
        "gesprekken", "berichten", "historia", "rozmow", "wiadomosc", "gecmis", "mesaj", "lich su", "riwayat",
        "historik", "konverzac", "istoric", "conversati", "ιστορικ", "היסטוריית", "تاریخچه", "سجل", "المحادثات",
        "इतिहास", "ईमेल",
        "聊天记录", "对话", "對話", "历史", "邮件", "郵件", "通讯录", "受信箱", "履歴", "メール", "대화", "기록", "이메일", "ประวัติ",
        # pl pt ar hi tr vi ja ko
        "contatos", "anexos", "codigos de verificacao", "senhas", "zalacznik", "hasla", "hasel", "رسائل", "جهات الاتصال",
        "مرفقات", "كلمات المرور", "محادثات", "संपर्क", "पासवर्ड", "संदेश", "kisiler", "sifre", "sohbet",
        "tin nhan", "danh ba", "mat khau", "連絡先", "添付", "パスワード", "会話", "연락처", "첨부", "비밀번호", "메시지",
        # keys and secrets an agent holds, id
        "api key", "api keys", "environment variables", "env vars", "tokens", "مفاتيح", "कुंजियाँ", "कुंजी",
        "kata sandi", "sandi", "lampiran", "kontak", "percakapan", "riwayat obrolan",
    ),
    "memory": (
        "memory", "memories", "remember", "stored", "saved", "store this", "save this", "note that",
        "memoria", "recuerdos", "recuerda", "recuerdame", "guarda",  # es
        "gedachtnis", "erinnerung", "merk", "gespeichert", "speicher",  # de
        "memoire", "souvenirs", "retiens", "rappelle", "enregistr",  # fr
        "memoria", "lembr", "ricord", "salv",  # pt it
        "памят", "запомни", "помни", "сохран", "запам",  # ru uk
        "geheugen", "onthoud", "pamiec", "pamietaj", "zapamietaj", "hafiza", "bellek", "hatirla", "kaydet", "bo nho",
        "ghi nho", "memori", "ingat", "minne", "kom ihag", "pamet", "zapamatuj", "memorie", "aminteste", "μνημ", "θυμησ",
        "זיכרון", "זכור", "حافظه", "یادت", "ذاكرة", "تذكر", "احفظ", "याद", "स्मृति", "याददाश्त",
        "记忆", "記憶", "记住", "記住", "记得", "メモリ", "覚えて", "保存", "기억", "메모리", "저장", "ความจำ", "จำ",
        # pl pt ar hi tr vi ja ko
        "zapisz", "ذاكرت", "सहेज", "luu",
    ),
    "money": (
        "payment", "pay", "transfer", "bank account", "iban", "wallet", "crypto", "invoice", "refund", "funds",
        "pago", "transferencia", "cuenta", "zahlung", "uberweis", "konto", "paiement", "virement", "pagamento", "bonifico",
        "оплат", "перевод", "счет", "платеж", "betaling", "przelew", "platnosc", "odeme", "thanh toan", "pembayaran",
        "πληρωμ", "תשלום", "پرداخت", "دفع", "تحويل", "भुगतान",
        "付款", "转账", "支付", "振込", "支払", "송금", "결제", "โอนเงิน",
        # pl pt ar hi tr vi ja ko
        "pix$", "boleto", "حساب بنكي", "ट्रांसफर", "havale", "chuyen khoan", "送金",
    ),
    "tool": (
        "call the", "run the", "execute", "invoke", "tool", "function", "shell", "curl", "rm -rf", "drop table", "webhook",
        "fetch_url", "http_get", "send_email", "api call",
        "llama a", "ejecuta", "herramienta", "funcion", "ruf", "fuhre", "werkzeug", "aufruf", "appelle", "execute",
        "outil", "chame", "ferramenta", "chiama", "esegui", "strumento", "вызови", "выполни", "запусти", "инструмент",
        "виклич", "roep", "voer uit", "wywolaj", "uruchom", "wykonaj", "narzedzi", "cagir", "calistir", "arac", "goi",
        "chay", "cong cu", "panggil", "jalankan", "anropa", "kor", "zavolej", "spust", "apeleaza", "ruleaza",
        "εκτελεσ", "κάλεσε", "הפעל", "הרץ", "اجرا", "استدع", "نفذ*", "شغل", "أداة", "टूल", "चलाओ",
        "调用", "執行", "执行", "运行", "工具", "呼び出", "実行", "ツール", "호출", "실행", "도구", "เรียกใช้",
        # pl pt ar hi tr vi ja ko
        "rode$", "चलाए", "कमांड", "komut",
        "menjalankan", "dijalankan", "memanggil", "dipanggil", "eksekusi", "викона", "виконуй",  # id uk
    ),
    "style": (
        "answer in", "reply in", "respond in", "in english", "in german", "in spanish", "in french", "bullet", "table",
        "shorter", "short", "brief", "emoji", "formal", "metric", "units", "tone", "concise",
        "en espanol", "en aleman", "en ingles", "breve", "listas", "auf deutsch", "auf englisch", "kurzer", "stichpunkte",
        "en francais", "en anglais", "tutoie", "court", "em portugues", "em ingles", "in italiano", "brevi",
        "по-русски", "на русском", "короче", "покороче", "українською", "in het nederlands", "po polsku", "turkce",
        "tieng viet", "bahasa indonesia", "pa svenska", "cesky", "in romana", "στα ελληνικα", "בעברית", "فارسی",
        "بالعربية", "باللغة", "हिंदी में", "अंग्रेज़ी",
        "中文", "简体", "表格", "简短", "日本語", "敬語", "箇条書き", "한국어", "표로", "존댓말", "ภาษาไทย",
        "德语", "英语", "法语", "西班牙语", "日语", "俄语", "项目符号", "列表", "ドイツ語", "英語", "フランス語", "독일어",
        "영어", "목록",
    ),
    # a new identity for the reader ("you are now Rex", "act as", "tu es désormais", "artık sen", "として振る舞"): a persona
    # change kept across sessions
    "persona": (
        "you are now", "you're now", "now you are", "on you are", "you will now be", "act as", "pretend to be", "your name is", "your new name", "present yourself as",
        "behave as", "henceforth you are", "ahora eres", "eres ahora", "actua como", "finge ser", "tu nombre es",
        "du bist jetzt", "du bist ab sofort", "du bist nun", "tu so als", "dein name ist", "agiere als", "gib dich als",
        "tu es maintenant", "tu es desormais", "agis comme", "fais semblant", "ton nom est", "joue le role", "presente-toi",
        "agora voce e", "voce agora e", "aja como", "finja ser", "seu nome e", "atue como", "apresente-se como",
        "ora sei", "sei ora", "comportati come", "fingi di essere", "il tuo nome e", "presentati come",
        "теперь ты", "ты теперь", "отныне ты", "притворись", "веди себя как", "твое имя", "играй роль", "представляйся",
        "тепер ти", "ти тепер", "jestes teraz", "teraz jestes", "od teraz jestes", "udawaj", "zachowuj sie jak",
        "wciel sie", "przedstawiaj sie", "je bent nu", "jij bent nu", "doe alsof", "gedraag je als", "artik sen",
        "sen artik", "gibi davran", "rolune", "rolunde", "gio ban la", "dong vai", "ban se la", "kamu adalah",
        "sekarang kamu", "berperan sebagai", "bertindak sebagai", "berpura", "du ar nu", "lat som", "ted jsi",
        "acum esti", "τωρα εισαι", "אתה עכשיו", "התנהג כמו", "انت الان", "انت منذ", "تظاهر", "تصرف كأنك", "بصفتك",
        "اسمك", "अब तुम", "तुम अब", "अब आप", "आप अब", "की तरह व्यवहार", "का किरदार", "बनकर", "तुम्हारा नाम",
        "你现在是", "现在你是", "你現在是", "扮演", "假装", "假裝", "你的名字", "として振る舞", "になりきって", "演じて",
        "あなたの名前", "너는", "행동해", "연기해", "척해", "역할을",
    ),
    # what an AI reader does to the text it was planted in ("whoever summarises this page", "the assistant that manages
    # this inbox", "Modele streszczające tę stronę", "इस ईमेल को संभालने वाले"): the carrier named from inside
    "handler": (
        "summaris", "summariz", "processing", "processes", "triag", "parsing", "ingest", "reading this", "reads this",
        "handles this", "handling this", "manages this", "managing this", "loads this", "crawl", "scrap", "automated$",
        "this page", "this email", "this e-mail", "this document", "this file", "this message", "this note", "this ticket",
        "this chat", "this thread", "this repository", "this repo", "this review", "this sheet", "this spreadsheet",
        "this invite", "this result", "this output", "this inbox", "this mailbox", "this conversation",
        "resum", "procesa", "lea esto", "lee este", "esta pagina", "este correo", "este documento", "este archivo",
        "este mensaje", "esta hoja", "gestiona",
        "zusammenfass", "verarbeit", "auswert", "liest", "diese seite", "diese e-mail", "dieses dokument", "diese datei",
        "diese nachricht", "diesen kommentar", "dieses postfach",
        "trait", "analys", "lisent", "cette page", "ce courriel", "ce mail", "ce document", "ce fichier", "ce message",
        "cette conversation", "gere",
        "process", "leia", "esta pagina", "este e-mail", "este arquivo", "esta mensagem", "esta conversa",
        "esta planilha", "este chamado", "gerencia",
        "riassum", "elabor", "legge", "questa pagina", "questa email", "questo documento", "questo file", "questo messaggio",
        "пересказ", "резюмир", "обрабатыва", "читает", "читающ", "эту страницу", "это письмо", "этот документ", "этот файл",
        "этот чат", "эту переписку", "опрацьов", "обробля", "читає", "цей лист", "цю сторінку",
        "streszcza", "przetwarza", "czyta", "analizuj", "obsluguj", "te strone", "ten e-mail", "ten mail", "ten dokument",
        "ten plik", "te rozmowe", "ten arkusz", "te skrzynke",
        "ozetle", "isleyen", "okuyan", "yoneten", "bu sayfa", "bu e-posta", "bu belge", "bu dosya", "bu sohbet",
        "bu sonuc", "bu tablo", "tom tat", "xu ly", "dang doc", "quan ly", "trang nay", "email nay", "tai lieu nay",
        "tep nay", "ket qua nay", "meringkas", "memproses", "membaca", "mengelola", "halaman ini", "email ini",
        "dokumen ini", "samenvat", "verwerk", "leest", "deze pagina", "deze e-mail", "dit document", "sammanfatt",
        "συνοψιζ", "επεξεργαζ", "שמסכם", "המעבד", "הקורא",
        "يلخص", "تلخص", "يعالج", "تعالج", "يقرا", "تقرا", "يدير", "هذه الصفحة", "هذا البريد", "هذه الرسالة", "هذا الملف",
        "هذه المحادثة", "هذا المستند", "هذه النتيجة", "هذا الطلب",
        "सारांश", "पढ़ने वाले", "पढ़ने वाला", "पढ़ रहे", "संभालने वाले", "संभालने वाला", "प्रोसेस", "इस पेज", "इस ईमेल",
        "इस फ़ाइल", "इस चैट", "इस दस्तावेज़", "इस परिणाम", "इस शीट", "इस मेलबॉक्स",
        "总结", "摘要", "整理", "处理", "處理", "读取", "讀取", "阅读", "閱讀", "本页面", "这个页面", "此页面", "这封邮件",
        "此邮件", "本文档", "此文件", "该文件", "此结果", "要約", "処理する", "読み取る", "読む", "このページ", "このメール",
        "この文書", "このファイル", "この表", "この結果", "요약", "처리하는", "읽는", "관리하는",
    ),
}

CONCEPTS: tuple[str, ...] = tuple(_TABLE)
#: Concepts that are features only in a pair: an AI reader, the user, "you", a time scope, a tool, money, rules or
#: a recommendation named alone says nothing of intent (the user's own preferences and an assistant's technical
#: answers name them as often as injections do); what is asked of whom does. The others are features alone too:
#: the writer's first person, a style, a request, a report or a wish (benign), consent, concealment and skipping
#: confirmation.
PAIRED_ONLY = frozenset(_TABLE) - {"self", "style", "request", "report", "wish", "consent", "conceal", "noconfirm"}
#: The concepts that are features alone too.
ALONE: tuple[str, ...] = tuple(c for c in CONCEPTS if c not in PAIRED_ONLY)
#: Every unordered pair of concepts, in a fixed order (each is one feature of the classifier).
PAIRS: tuple[str, ...] = tuple(f"{a}+{b}" for a, b in itertools.combinations(CONCEPTS, 2))

_NO_SPACE_CHARS = UNSPACED_SCRIPTS + "\uf900-\ufaff"  # and CJK compatibility ideographs
_NO_SPACE = re.compile(f"[{_NO_SPACE_CHARS}]")
_NO_SPACE_RUN = re.compile(f"[{_NO_SPACE_CHARS}]+")
# Combining marks are no word characters to `re`, yet they are letters' parts: Devanagari and the other Indic scripts'
# vowel signs and viramas, Hebrew points (without them, "उपयोगकर्ता" read as eight "words").
_MARKS = "\u0300-\u036f\u0591-\u05c7\u0900-\u0dff"
_LETTER = f"(?:[^\\W_{_NO_SPACE_CHARS}]|[{_MARKS}])"
# A word of a spaced script (a run of a script without spaces ends it), or one symbol ("-", ".").
_TOKENS = re.compile(f"{_LETTER}+(?:['.\\-]{_LETTER}+)*|[^\\w\\s{_MARKS}]")
# Letters that accent stripping keeps but the tables write plainly ("wysyłaj", "kullanıcı", "Straße"); Arabic alefs
# with hamza read as a bare alef and its short vowels and tatweel dropped ("أرسل", "ارسل", "أرْسِل"); Devanagari's nukta
# dropped and its chandrabindu read as an anusvara ("फ़ाइल", "फाइल"; "चलाएँ", "चलाएं"): spellings people mix.
_FOLD = str.maketrans({"ł": "l", "ı": "i", "ø": "o", "ß": "ss", "đ": "d", "æ": "ae", "œ": "oe", "ð": "d", "þ": "th",
                       "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "\u0640": None, "\u0670": None,
                       **{chr(c): None for c in range(0x064B, 0x0653)}, "\u093c": None, "\u0901": "\u0902"})
# Arabic writes "and", "so", "with", "to" and "the" onto the next word ("وأرسل", "بالمساعد", "للمستخدم"): a word is
# also looked up without them, longest first.
_ARABIC_CLITICS = ("وال", "فال", "بال", "كال", "لل", "ال", "و", "ف", "ب", "ل")
_ARABIC = re.compile("[\u0600-\u06ff]")
# The tables write Arabic verbs as imperatives ("أرسل", "احذف", "اطبع"); an order to a third party is a present tense
# with a person prefix ("يرسل", "تحذف", "تطبع", "نرسل"): such a word is also looked up with the prefix read as the
# imperative's alef, and without it ("يتجاهل" -> "تجاهل").
_ARABIC_PERSON = ("ي", "ت", "ن")
# French, Italian and Catalan write an elided article or pronoun onto the next word ("l'assistant", "l'utilisateur",
# "dell'utente", "all'assistente"): a word is also looked up without it (not after "j'", "n'", "s'": "j'ai" is no AI).
_ELISION = re.compile(r"^(?:l|d|qu|dell|all|nell|dall|sull|coll|un|quest|quell|nessun)'(?=\w{2})")


def _norm(text: str) -> str:
    return base(text).translate(_FOLD)


@functools.lru_cache(maxsize=1 << 15)
def _variants(word: str) -> tuple[str, ...]:
    """`word`; a word with an elided article also without it ("l'utilisateur" -> "utilisateur"); an Arabic word also
    without its leading clitics (at least three letters left), and a present tense also as its imperative."""
    if not _ARABIC.match(word):
        elided = _ELISION.match(word)
        return (word, word[elided.end():]) if elided else (word,)
    out = [word]
    for clitic in _ARABIC_CLITICS:
        if word.startswith(clitic) and len(word) - len(clitic) >= (2 if clitic in ("و", "ف") else 3):
            rest = word[len(clitic):]
            out.append(rest)
            if clitic in ("و", "ف") and rest.startswith("ال") and len(rest) >= 5:
                out.append(rest[2:])
    for form in list(out):
        if len(form) >= 4 and form[0] in _ARABIC_PERSON:
            out += [form[1:], "ا" + form[1:]]
    return tuple(dict.fromkeys(out))


class _Index:
    """The stems of `_TABLE`, normalised, in look-up tables by kind."""

    def __init__(self) -> None:
        self.whole: dict[str, set[str]] = {}  # a word that must match whole
        self.prefix: dict[str, set[str]] = {}  # a word's beginning
        self.pairs: dict[str, set[str]] = {}  # "first second": a phrase of two words, the second by its beginning
        self.longer: dict[tuple[str, str], list[tuple[tuple[str, ...], str]]] = {}  # two words -> (the rest, concept)
        self.first_words: set[str] = set()
        self.substrings: dict[str, set[str]] = {}  # CJK, Thai, Hangul: anywhere
        lengths: set[int] = set()
        sub_lengths: set[int] = set()
        pair_lengths: set[int] = set()
        for concept, stems in _TABLE.items():
            for stem in stems:
                exact = stem.endswith("$")
                starred = stem.endswith("*")
                norm = _norm(stem.rstrip("$*"))
                if _NO_SPACE.search(norm):
                    self.substrings.setdefault(norm, set()).add(concept)
                    sub_lengths.add(len(norm))
                    continue
                words = tuple(w for w in _TOKENS.findall(norm) if w.strip())
                if not words:
                    continue
                if len(words) == 2:
                    self.pairs.setdefault(" ".join(words), set()).add(concept)
                    self.first_words.add(words[0])
                    pair_lengths.add(len(words[1]))
                elif len(words) > 2:
                    self.longer.setdefault((words[0], words[1]), []).append((words[2:], concept))
                    self.first_words.add(words[0])
                elif exact or (len(words[0]) <= 3 and not starred):
                    self.whole.setdefault(words[0], set()).add(concept)
                else:
                    self.prefix.setdefault(words[0], set()).add(concept)
                    lengths.add(len(words[0]))
        self.lengths = sorted(lengths)
        self.sub_lengths = sorted(sub_lengths)
        self.max_length = max(lengths, default=0)
        self.pair_lengths = sorted(pair_lengths)


@functools.cache
def _index() -> _Index:
    return _Index()


@functools.lru_cache(maxsize=1 << 15)
def _word_concepts(word: str) -> frozenset[str]:
    """The concepts one word names, whole or by its beginning (words repeat: cached)."""
    ix = _index()
    found = set(ix.whole.get(word, ()))
    for n in ix.lengths:
        if n > len(word):
            break
        found |= ix.prefix.get(word[:n], set())
    return frozenset(found)


@functools.lru_cache(maxsize=1 << 15)
def _phrase_concepts(first: str, second: str, rest: tuple[str, ...]) -> frozenset[str]:
    """The concepts of the phrases that begin with `first`, `second` and go on with `rest` (cached)."""
    ix = _index()
    found: set[str] = set()
    for n in ix.pair_lengths:
        if n > len(second):
            break
        found |= ix.pairs.get(f"{first} {second[:n]}", set())
    for more, concept in ix.longer.get((first, second), ()):
        following = rest[:len(more)]
        if len(following) == len(more) and following[:-1] == more[:-1] and following[-1].startswith(more[-1]):
            found.add(concept)
    return frozenset(found)


def concepts(text: str) -> frozenset[str]:
    """The concepts present in `text` (raw or normalised by engram.safety.views.base: it is folded here)."""
    ix = _index()
    text = text.casefold() if text.isascii() else _norm(text)
    found: set[str] = set()
    words = _TOKENS.findall(text)
    for i, word in enumerate(words):
        for form in _variants(word):
            found |= _word_concepts(form)
            if form in ix.first_words and i + 1 < len(words):
                following = words[i + 1]
                for second in _variants(following):
                    found |= _phrase_concepts(form, second, tuple(words[i + 2:i + 5]))
    if _NO_SPACE.search(text):
        subs = ix.substrings
        for run in _NO_SPACE_RUN.findall(text):
            for n in ix.sub_lengths:
                for start in range(len(run) - n + 1):
                    hit = subs.get(run[start:start + n])
                    if hit:
                        found |= hit
    return frozenset(found)


# Where one sentence ends: the concepts of an order stand in one sentence, so pairs are read within each.
_SENTENCE = re.compile(r"[.!?;\n。！？；]+(?:\s+|$)")


def concept_features(text: str) -> list[str]:
    """The features of `text`'s concepts: each concept that counts alone, and each pair of concepts found in one
    sentence ("a + b", in CONCEPTS order). In a long text, concepts of different sentences do not pair up."""
    alone: set[str] = set()
    pairs: set[str] = set()
    for sentence in _SENTENCE.split(text):
        found = concepts(sentence) if sentence.strip() else frozenset()
        alone |= found - PAIRED_ONLY
        ordered = [c for c in CONCEPTS if c in found]
        pairs.update(f"{a}+{b}" for i, a in enumerate(ordered) for b in ordered[i + 1:])
    return sorted(alone) + sorted(pairs)
