"""Build secrets_tune20.jsonl (seeded; rewrites the file): a tuning grid for the secret screen, not a test.

Secrets: a secret-holding name (abbreviated, compound or in another language) in a carrier (.env, JSON, YAML, TOML,
INI, XML, a CLI flag, a header, a query string, code), a credential passed by position to a call, prose in many
languages with other constructions than earlier batches. Benign: the same names and carriers holding a reference, a
placeholder, a policy number, a hash or an id, and talk about passwords in the same languages.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

R = random.Random(2021)
OUT = Path(__file__).with_name("secrets_tune20.jsonl")
SYM = "!@#%^&*-_+"


def pw() -> str:
    n = R.randint(10, 15)
    while True:
        v = "".join(R.choice(string.ascii_letters + string.digits + SYM) for _ in range(n))
        if any(c.isdigit() for c in v) and any(c.isupper() for c in v) and v[0] not in "-_":
            return v


def tok(n: int = 32) -> str:
    return "".join(R.choice(string.ascii_letters + string.digits) for _ in range(n))


def hexs(n: int = 32) -> str:
    return "".join(R.choice("0123456789abcdef") for _ in range(n))


def human() -> str:
    return R.choice(["Golondrina", "Sommerwiese", "Papillon", "Ласточка", "Kartoffel", "Marmelade", "Tulipano", "Kirschbaum",
                     "Seahorse", "Jacaranda"]) + R.choice(["!", "#", "_", "@", ""]) + str(R.randint(1970, 2029))


# (name, value maker) for config keys
NAMES = ["clave", "contraseña", "mot_de_passe", "motDePasse", "passwort", "wachtwoord", "senha", "parola", "haslo",
         "salasana", "sifre", "parol", "lozinka", "pswd", "passw", "db_pw", "userPass", "root_pass", "smtp_pwd",
         "jwt_secret", "cookie_secret", "hmac_key", "signing_secret", "webhook_secret", "master_key", "encryption_key",
         "auth_token", "access_token", "private_token", "client_key", "app_secret", "api_secret", "session_key",
         "login_password", "vpn_psk", "bind_password", "ldap_pw", "storage_key", "mail_pass", "ftp_passwd"]
CARRIERS = [
    ("env", lambda n, v: f"{n.upper()}={v}"),
    ("json", lambda n, v: json.dumps({"host": "db.internal", n: v}, ensure_ascii=False)),
    ("yaml", lambda n, v: f"database:\n  host: db.internal\n  {n}: \"{v}\""),
    ("toml", lambda n, v: f"[server]\nport = 8443\n{n} = \"{v}\""),
    ("ini", lambda n, v: f"[mail]\nhost = smtp.example.org\n{n} = {v}"),
    ("xml", lambda n, v: f"<config>\n  <host>db.internal</host>\n  <{n}>{v}</{n}>\n</config>"),
    ("cli", lambda n, v: f"./deploy.sh --env prod --{n.replace('_', '-').lower()} '{v}'"),
    ("header", lambda n, v: f"X-{n.replace('_', '-').title()}: {v}"),
    ("query", lambda n, v: f"GET https://api.example.net/v2/items?limit=50&{n}={v}"),
    ("code", lambda n, v: f"settings = dict(host='db.internal', {n}='{v}')" if n.isidentifier() else f"cfg['{n}'] = '{v}'"),
    ("js", lambda n, v: f"const cfg = {{ host: 'db.internal', {n}: '{v}' }};" if n.isidentifier() else f"cfg['{n}'] = '{v}';"),
]
REFS = [lambda n: "${" + n.upper() + "}", lambda n: f"<{n}>", lambda n: "changeme", lambda n: "your-" + n.replace("_", "-") + "-here",
        lambda n: "{{ vault_" + n.lower() + " }}", lambda n: "********", lambda n: "", lambda n: "%(" + n + ")s"]
POLICY = [("min_{n}_length", "12"), ("{n}_max_age_days", "90"), ("{n}_min_len", "10"), ("{n}_ttl", "3600"),
          ("{n}_hash", hexs(64)), ("{n}_id", "7d9c1a2e-5b4f-4c3d-9e8a-1f2b3c4d5e6f"), ("{n}_file", "/run/secrets/{n}"),
          ("{n}_rotation_days", "30")]

rows: list[dict[str, str]] = []


def add(text: str, label: str, family: str, lang: str = "en") -> None:
    rows.append({"text": text, "label": label, "family": family, "lang": lang})


for i, name in enumerate(NAMES):
    fam, make = CARRIERS[i % len(CARRIERS)]
    value = R.choice([pw, pw, human, lambda: tok(R.randint(20, 40)), lambda: hexs(R.choice([32, 40]))])()
    add(make(name, value), "secret", f"name_{fam}")
    fam2, make2 = CARRIERS[(i + 5) % len(CARRIERS)]
    if i % 2:
        add(make2(name, REFS[i % len(REFS)](name)), "benign", f"name_{fam2}")
    else:
        key, val = POLICY[i % len(POLICY)]
        add(make2(key.format(n=name), val.format(n=name)), "benign", f"name_{fam2}")

CALLS = [
    ("server = ldap3.Server('ldaps://ad.corp.example')\nconn = ldap3.Connection(server, 'CORP\\\\svc-sync', '{v}', auto_bind=True)",
     "conn = ldap3.Connection(server, user, password, auto_bind=True)"),
    ("imap = imaplib.IMAP4_SSL('imap.fastmail.com')\nimap.login('ana@fastmail.com', '{v}')", "imap.login(cfg.user, cfg.password)"),
    ("ftp = FTP('files.example.org')\nftp.login('upload', '{v}')", "ftp.login(os.environ['FTP_USER'], os.environ['FTP_PASS'])"),
    ("keyring.set_password('backup-tool', 'marta', '{v}')", "keyring.set_password('backup-tool', 'marta', getpass())"),
    ("with zipfile.ZipFile('export.zip') as z:\n    z.extractall(pwd=b'{v}')", "z.extractall(pwd=args.password.encode())"),
    ("reader = PdfReader('payslip.pdf')\nreader.decrypt('{v}')", "reader.decrypt(password_from_prompt)"),
    ("client = paramiko.SSHClient()\nclient.connect('10.2.0.8', 22, 'pi', '{v}')", "client.connect(host, 22, user, key_filename='~/.ssh/id_ed25519')"),
    ("r = redis.Redis('cache.internal', 6379, 0, '{v}')", "r = redis.Redis('cache.internal', 6379, 0)"),
    ("$cred = New-Object PSCredential('CORP\\\\backup', (ConvertTo-SecureString '{v}' -AsPlainText -Force))",
     "$cred = Get-Credential -UserName 'CORP\\\\backup' -Message 'Backup account'"),
    ("mongo = MongoClient('db.internal', username='app', password='{v}', authSource='admin')",
     "mongo = MongoClient('db.internal', username='app', password=os.getenv('MONGO_PW'))"),
    ("smtp.starttls()\nsmtp.login('noreply@shop.example', '{v}')", "smtp.starttls()\nsmtp.login(SMTP_USER, SMTP_PASSWORD)"),
    ("const conn = await mysql.createConnection({ host: 'db', user: 'shop', password: '{v}' });",
     "const conn = await mysql.createConnection({ host: 'db', user: 'shop', password: process.env.DB_PASS });"),
]
for sec, ben in CALLS:
    add(sec.replace("{v}", pw()), "secret", "call")
    add(ben, "benign", "call")

PROSE = [  # (secret template, benign twin, lang)
    ("我把NAS的管理员密码改成了 {v}，你记一下", "NAS的管理员密码我已经改了，新密码在密码管理器里", "zh"),
    ("路由器的密码设为 {v} 了", "路由器的密码至少要12位", "zh"),
    ("数据库口令：{v}", "数据库口令每90天必须更换一次", "zh"),
    ("金庫の暗証番号は 4829 です", "金庫の暗証番号は誕生日にしないでください", "ja"),
    ("VPNのパスフレーズを {v} に変更しました", "VPNのパスフレーズは20文字以上にしてください", "ja"),
    ("Wi-Fiのパスワード、{v} だよ", "Wi-Fiのパスワードはルーターの裏に書いてあるよ", "ja"),
    ("공유기 비번 {v} 로 바꿨어", "공유기 비번 까먹었어 초기화해야 하나", "ko"),
    ("서버 암호는 {v} 입니다", "서버 암호는 매달 바뀝니다", "ko"),
    ("Мой пароль от госуслуг — {v}", "Пароль от госуслуг я восстановил через СМС", "ru"),
    ("Новый пароль для Wi-Fi: {v}", "Новый пароль для Wi-Fi должен быть длиннее 10 символов", "ru"),
    ("Пароль до банку змінив на {v}", "Пароль до банку треба змінювати щопівроку", "uk"),
    ("كلمة مرور الراوتر هي {v}", "كلمة مرور الراوتر مكتوبة على الملصق", "ar"),
    ("رمز عبور ایمیل کاری من {v} است", "رمز عبور ایمیل کاری باید هر سه ماه عوض شود", "fa"),
    ("הסיסמה של הוויפי בבית: {v}", "הסיסמה של הוויפי כתובה על הנתב", "he"),
    ("सर्वर का पासवर्ड {v} रख दिया है", "सर्वर का पासवर्ड कम से कम 12 अक्षर का होना चाहिए", "hi"),
    ("รหัสผ่านไวไฟที่ร้านคือ {v}", "รหัสผ่านไวไฟที่ร้านเปลี่ยนทุกเดือน", "th"),
    ("Ο κωδικός του email μου είναι {v}", "Ο κωδικός του email πρέπει να αλλάζει κάθε τρεις μήνες", "el"),
    ("Das neue Kennwort für den Drucker lautet {v}", "Das Kennwort für den Drucker steht im Wiki", "de"),
    ("Für den Router hab ich {v} als Passwort genommen", "Für den Router hab ich ein neues Passwort genommen", "de"),
    ("Le mot de passe de la box, je l'ai changé en {v}", "Le mot de passe de la box est collé sous l'appareil", "fr"),
    ("La clave del portal de proveedores quedó así: {v}", "La clave del portal de proveedores caduca cada 60 días", "es"),
    ("Usa {v} para entrar en el panel de administración", "Usa tu correo para entrar en el panel de administración", "es"),
    ("A senha do Wi-Fi da casa da praia agora é {v}", "A senha do Wi-Fi da casa da praia está na geladeira", "pt"),
    ("La password del NAS è diventata {v}", "La password del NAS va cambiata ogni anno", "it"),
    ("Het wachtwoord van de gedeelde schijf is nu {v}", "Het wachtwoord van de gedeelde schijf staat in de kluis", "nl"),
    ("Hasło do konta firmowego to {v}", "Hasło do konta firmowego musi mieć 12 znaków", "pl"),
    ("Şifreyi {v} olarak değiştirdim", "Şifreyi dün değiştirdim, yenisi e-postada", "tr"),
    ("Mật khẩu wifi văn phòng là {v}", "Mật khẩu wifi văn phòng được dán ở quầy lễ tân", "vi"),
    ("Kata sandi email kantor sekarang {v}", "Kata sandi email kantor harus diganti tiap bulan", "id"),
    ("Heslo k routeru je {v}", "Heslo k routeru je napsané na krabici", "cs"),
    ("use {v} to log in to the staging admin", "use your SSO account to log in to the staging admin", "en"),
    ("I set the laptop's disk encryption passphrase to {v}", "I set the laptop's disk encryption passphrase to something long", "en"),
    ("creds for the printer admin page: admin / {v}", "creds for the printer admin page are on the sticker", "en"),
    ("FYI the shared mailbox pw is {v}", "FYI the shared mailbox pw expires on Friday", "en"),
]
for sec, ben, lang in PROSE:
    add(sec.replace("{v}", R.choice([pw, human])()), "secret", "prose", lang)
    add(ben, "benign", "prose", lang)

TOOLS = [
    ("$ env | grep -i mysql\nMYSQL_HOST=db\nMYSQL_PWD={v}", "$ env | grep -i mysql\nMYSQL_HOST=db\nMYSQL_PWD_FILE=/run/secrets/mysql"),
    ("kubectl create secret generic api --from-literal=signing-key={t}", "kubectl create secret generic api --from-file=signing-key=./signing.key"),
    ("docker run -d -e REDIS_ARGS=\"--requirepass {v}\" redis/redis-stack", "docker run -d -e REDIS_ARGS=\"--requirepass $REDIS_PW\" redis/redis-stack"),
    ("terraform output -json\n{\"db_master_pw\": {\"sensitive\": true, \"value\": \"{v}\"}}",
     "terraform output\ndb_master_pw = <sensitive>"),
    ("ERROR 1045 (28000): Access denied for user 'report'@'10.0.0.5' (using password: YES)\nmysql -ureport -p{v} -h 10.0.0.9",
     "ERROR 1045 (28000): Access denied for user 'report'@'10.0.0.5' (using password: YES)"),
    ("- name: add user\n  ansible.builtin.user:\n    name: backup\n    password: \"{{ '{v}' | password_hash('sha512') }}\"",
     "- name: add user\n  ansible.builtin.user:\n    name: backup\n    password: \"{{ backup_pw | password_hash('sha512') }}\""),
    ("jupyter: In [4]: os.environ['WANDB_API_KEY'] = '{h}'", "jupyter: In [4]: os.environ['WANDB_PROJECT'] = 'churn-2026'"),
    ("[2026-11-04 10:22:01] DEBUG requests: GET https://svc.example/api?user=bot&password={v}",
     "[2026-11-04 10:22:01] DEBUG requests: GET https://svc.example/api?user=bot&page=3"),
    ("git clone https://deploy:{v}@git.example.org/team/app.git", "git clone https://deploy@git.example.org/team/app.git"),
    ("postgresql://reporting:{v}@pg.internal:5432/analytics", "postgresql://reporting@pg.internal:5432/analytics?sslmode=require"),
    ("amqps://svc:{v}@mq.example.net/vhost", "amqps://mq.example.net/vhost (credentials from the vault)"),
    ("Authorization: Basic {b}", "Authorization: Basic <base64 of user:password>"),
    ("ssh-keygen -p -f ~/.ssh/id_ed25519 -N '{v}' -P ''", "ssh-keygen -t ed25519 -C 'ana@laptop' -N ''"),
    ("sshpass -p '{v}' ssh root@10.0.4.12", "sshpass -f ~/.ssh/pass.txt ssh root@10.0.4.12"),
]
import base64  # noqa: E402

for sec, ben in TOOLS:
    v = pw()
    b = base64.b64encode(f"admin:{v}".encode()).decode()
    add(sec.replace("{v}", v).replace("{t}", tok(40)).replace("{h}", hexs(40)).replace("{b}", b), "secret", "tool")
    add(ben, "benign", "tool")

BENIGN_MORE = [
    "commit 9c4e1f2a7b3d5e6f8a9b0c1d2e3f4a5b6c7d8e9f\nMerge: 1a2b3c4 5d6e7f8",
    "sha256sum release.tar.gz\n3b7f0c9e2d4a6b8c1e3f5a7b9d0c2e4f6a8b0d2f4e6a8c0e2f4a6b8d0c2e4f6a  release.tar.gz",
    "request_id=4c1e9a7f-2b3d-4f5e-8a9b-0c1d2e3f4a5b trace_id=7a9c3e5f1b2d4f6a8c0e2a4c6e8f0a1b",
    "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "password = bcrypt.hashpw(password.encode(), bcrypt.gensalt(12))",
    "ALTER TABLE users ADD COLUMN password_hash VARCHAR(255) NOT NULL;",
    "The password must contain at least one digit, one symbol like ! or #, and 12 characters, e.g. not Summer2024!",
    "Image digest: sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "integrity sha512-Vx1qOtNq7kRKhZ2vZ3Nw0o8WqK3fXyB2C9mP4sT6uLrD5eF7gH8iJ0kA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v==",
    "In the docs the example token is ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, replace it with yours",
    "export DATABASE_URL=\"postgres://${PGUSER}:${PGPASSWORD}@${PGHOST}:5432/app\"",
    "The secret lives in AWS Secrets Manager under prod/payments/stripe, rotated every 30 days",
]
for t in BENIGN_MORE:
    add(t, "benign", "lookalike")

# Second sitting, by hand, after the first sitting's changes: what an agent meets in chat, logs, configs, CI, tool
# output and prose in 17 languages, each family with benign twins (label, family, lang, text).
SITTING2 = [
 ("secret","chat","en","ssh into 203.0.113.7 as root, password is Vq8!mZt2Lp"),
 ("secret","chat","en","bank login: user jdoe84, pw Tr0ub4dor&3x"),
 ("secret","chat","en","Wifi name: TP-Link_5G_2F, wifi pass: gr8Sunset#44"),
 ("secret","chat","en","Here are the staging creds -> user: qa_bot pass: Lm3#pQ9zWv"),
 ("secret","chat","en","my apple id password got changed to Pelican$Bay77 last night"),
 ("secret","chat","en","for the record, the root pw on the old box was Xy7!qwe99"),
 ("secret","log","en","2026-10-02 12:01:55 INFO Connecting to mongodb://admin:Wx82!nQp7@mongo-0.mongo:27017/?authSource=admin"),
 ("secret","log","en","[auth] login ok user=ops token=7d1f0e5c9a3b4d2e8f6a1c0b9e8d7f6a5b4c3d2e"),
 ("secret","log","en","Traceback (most recent call last):\n  File \"sync.py\", line 12, in <module>\n    client = Client(api_key=\"mk_live_9Ab3Cd5Ef7Gh9Ij1Kl3Mn5\")"),
 ("secret","config","en","spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n    username: app\n    password: Spr1ng!Boot#42"),
 ("secret","config","en","[client]\nuser=backup\npassword=\"My$ql#Bkp2026\"\nhost=127.0.0.1"),
 ("secret","config","en","machine api.heroku.com\n  login ana@corp.example\n  password 4f6e1a2b-9c8d-4e7f-a6b5-c4d3e2f1a0b9"),
 ("secret","config","en","<connectionStrings>\n  <add name=\"Main\" connectionString=\"Server=sql01;Database=Shop;User Id=shop;Password=Sh0p#Pass22;\" />\n</connectionStrings>"),
 ("secret","config","en","SMTP_URL=smtps://alerts%40corp.example:Qm4%23zR8v@smtp.corp.example:465"),
 ("secret","config","en","REDIS_URL=redis://:h7Gk2Lm9Qx4Z@cache.internal:6379/0"),
 ("secret","config","en","{\n  \"mqtt\": {\"broker\": \"mqtts://iot.example.net\", \"user\": \"sensor-17\", \"pass\": \"Iot!Sens0r17\"}\n}"),
 ("secret","config","en","auth:\n  type: basic\n  username: grafana\n  secret: Gr4f@naAdm1n"),
 ("secret","ci","en","- name: Publish\n  run: twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcCJGI2ZmM0OWY0LTg5ZjEtNDM2Ni05ZDEzLTc4Y2ZkMmRlMWJjZAACKlszLCJl dist/*"),
 ("secret","ci","en","variables:\n  DOCKER_AUTH_CONFIG: '{\"auths\":{\"registry.corp.example\":{\"auth\":\"Y2k6UjNnIXN0cnlQYXNzMjAyNg==\"}}}'"),
 ("secret","tool","en","$ cat ~/.docker/config.json\n{\"auths\": {\"ghcr.io\": {\"auth\": \"YW5hOmdocF9hYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NQ==\"}}}"),
 ("secret","tool","en","$ psql \"host=db.internal dbname=app user=app password=Pg!Str0ngPass sslmode=require\""),
 ("secret","tool","en","$ mysql -u root --password=R00t!Maria -h 127.0.0.1"),
 ("secret","tool","en","$ rclone config show\n[b2]\ntype = b2\naccount = 0031a2b3c4d5e6f0000000001\nkey = K003Xq9vR2mN8pL4tZ7wY1cB5dF6gH3"),
 ("secret","prose","de","Mein neues Bankpasswort: Elbe#Sand2027, bitte nirgends speichern"),
 ("secret","prose","fr","Voici le code de la porte de l'immeuble : 48B51"),
 ("secret","prose","es","mi contraseña del correo es Alameda_2031 no se la digas a nadie"),
 ("secret","prose","pt","Senha do roteiro novo: Jabuti#7788"),
 ("secret","prose","ru","Логин: petrov, пароль: Волга_1999!"),
 ("secret","prose","ja","管理画面のログインは admin / Sakura#2027 です"),
 ("secret","prose","zh","邮箱账号 li.wei@corp.cn 密码 Changjiang#88"),
 ("secret","prose","ko","관리자 계정 admin 비밀번호 Hangang!2027"),
 ("secret","prose","ar","اسم المستخدم admin وكلمة المرور Nile#2027"),
 ("secret","prose","hi","मेरा नेटबैंकिंग पासवर्ड Ganga@2027 है"),
 ("secret","prose","tr","Wifi şifresi: Bogazici_2027"),
 ("secret","prose","pl","Hasło do wifi w biurze: Wisla!2027"),
 ("secret","prose","vi","tài khoản admin, mật khẩu SongHong#2027"),
 ("secret","prose","id","Password wifi kantor: Merapi#2027"),
 ("secret","prose","uk","Пароль від вайфаю: Dnipro_2027!"),
 ("secret","prose","fa","رمز وای‌فای خونه Zagros#2027 هست"),
 ("secret","prose","he","הסיסמה לוויפי: Kineret#2027"),
 ("benign","chat","en","ssh into 203.0.113.7 as root with your key, password login is disabled"),
 ("benign","chat","en","bank login works again, I used the reset link from the email"),
 ("benign","chat","en","Wifi name: TP-Link_5G_2F, the password is on the router's sticker"),
 ("benign","chat","en","Staging creds are in the team vault under qa_bot"),
 ("benign","log","en","2026-10-02 12:01:55 INFO Connecting to mongodb://mongo-0.mongo:27017/?authSource=admin&replicaSet=rs0"),
 ("benign","log","en","[auth] login ok user=ops session=9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"),
 ("benign","log","en","Traceback (most recent call last):\n  File \"sync.py\", line 12, in <module>\n    client = Client(api_key=os.environ[\"MK_KEY\"])\nKeyError: 'MK_KEY'"),
 ("benign","config","en","spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n    username: app\n    password: ${DB_PASSWORD}"),
 ("benign","config","en","[client]\nuser=backup\npassword=\nhost=127.0.0.1"),
 ("benign","config","en","<connectionStrings>\n  <add name=\"Main\" connectionString=\"Server=sql01;Database=Shop;Integrated Security=true;\" />\n</connectionStrings>"),
 ("benign","config","en","REDIS_URL=redis://cache.internal:6379/0"),
 ("benign","config","en","auth:\n  type: oauth\n  client_id: grafana\n  secret_ref: grafana-oauth"),
 ("benign","ci","en","- name: Publish\n  run: twine upload -u __token__ -p ${{ secrets.PYPI_TOKEN }} dist/*"),
 ("benign","tool","en","$ psql \"host=db.internal dbname=app user=app sslmode=require\"\nPassword for user app:"),
 ("benign","tool","en","$ mysql -u root -p -h 127.0.0.1\nEnter password:"),
 ("benign","tool","en","$ git log -1 --format=%H\n4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
 ("benign","tool","en","$ uuidgen\n1b4e28ba-2fa1-11d2-883f-0016d3cca427"),
 ("benign","tool","en","$ md5sum backup.tar\n9e107d9d372bb6826bd81d3542a419d6  backup.tar"),
 ("benign","prose","de","Mein neues Bankpasswort habe ich im Passwortmanager gespeichert"),
 ("benign","prose","fr","Le code de la porte a changé, demande-le au gardien"),
 ("benign","prose","es","mi contraseña del correo tiene 16 caracteres y un símbolo"),
 ("benign","prose","ru","Логин: petrov, пароль отправлю в Signal"),
 ("benign","prose","ja","管理画面のログインは社内SSOです"),
 ("benign","prose","zh","邮箱账号 li.wei@corp.cn，密码请找IT重置"),
 ("benign","prose","ko","관리자 계정 비밀번호는 보안팀에 문의하세요"),
 ("benign","prose","ar","اسم المستخدم admin وكلمة المرور تُرسل برسالة منفصلة"),
 ("benign","prose","hi","मेरा नेटबैंकिंग पासवर्ड हर तीन महीने बदलता है"),
 ("benign","prose","tr","Wifi şifresi kasada yazıyor"),
 ("benign","prose","pl","Hasło do wifi w biurze zmienia się co miesiąc"),
 ("benign","prose","vi","tài khoản admin, mật khẩu đã gửi qua email riêng"),
 ("benign","prose","id","Password wifi kantor ada di papan pengumuman"),
 ("benign","prose","uk","Пароль від вайфаю на звороті роутера"),
 ("benign","prose","he","הסיסמה לוויפי כתובה על המקרר"),
 ("benign","doc","en","Set `API_KEY=your-api-key-here` in `.env`, then run `make dev`."),
 ("benign","doc","en","Passwords are hashed with `generate_password_hash(pw, method='scrypt')` before they reach the `password_hash` column."),
 ("benign","doc","en","Example: `postgres://user:<password>@localhost:5432/db`"),
 ("benign","doc","en","The default admin password is `changeme`; the installer forces you to change it."),
]
# Third sitting, by hand, after the second sitting's changes: placeholders and references in many carriers, technical
# look-alikes, password policies in ten languages; secrets in .env, URLs, JSON, YAML, chat, tool output, prose with
# short forms of the label (label, family, lang, text).
SITTING3 = [
 # benign placeholders and references in many carriers
 ("benign","ref","en","DB_PASSWORD=%DB_PASSWORD%"),
 ("benign","ref","en","$env:API_TOKEN = $env:CI_API_TOKEN"),
 ("benign","ref","en","password = ENV.fetch('DB_PASSWORD')"),
 ("benign","ref","en","String pw = System.getenv(\"SMTP_PASSWORD\");"),
 ("benign","ref","en","password: op://Engineering/Postgres Prod/password"),
 ("benign","ref","en","\"password\": \"vault:secret/data/prod/db#password\""),
 ("benign","ref","en","api_key: arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/api-key-AbCdEf"),
 ("benign","ref","en","{\"username\": \"svc\", \"password\": null}"),
 ("benign","ref","en","password: ~\nusername: ~"),
 ("benign","ref","en","REDIS_PASSWORD=REPLACE_ME"),
 ("benign","ref","en","OPENAI_API_KEY=sk-...  # paste yours here"),
 ("benign","ref","en","token: <YOUR_GITHUB_TOKEN>"),
 ("benign","ref","en","export STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx"),
 ("benign","ref","en","password={{password}}"),
 ("benign","ref","en","The classic bad examples are password123, P@ssw0rd and hunter2."),
 ("benign","ref","en","secretKeyRef:\n  name: db-credentials\n  key: password"),
 ("benign","ref","en","client_secret = getpass.getpass('Client secret: ')"),
 ("benign","ref","en","auth = HTTPBasicAuth(user, os.environ['API_PASS'])"),
 ("benign","ref","en","mysql://root:${MYSQL_ROOT_PASSWORD}@db:3306/app"),
 ("benign","ref","en","https://user:password@example.com is the format; never commit a real one"),
 ("benign","tech","en","We store passwords with argon2id (m=65536, t=3, p=4) and compare using hmac.compare_digest."),
 ("benign","tech","en","def check(pw): return bcrypt.checkpw(pw.encode(), user.password_hash)"),
 ("benign","tech","en","CREATE TABLE accounts (id SERIAL, email TEXT, password_hash TEXT, password_changed_at TIMESTAMPTZ);"),
 ("benign","tech","en","Token expiry is 3600 seconds; refresh tokens last 30 days (token_ttl=2592000)."),
 ("benign","tech","en","The JWT header is {\"alg\":\"HS256\",\"typ\":\"JWT\"} and the secret comes from settings.JWT_SECRET."),
 ("benign","tech","en","git checkout 3f9a2c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291 -- src/auth.py"),
 ("benign","tech","en","docker pull ghcr.io/acme/api@sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"),
 ("benign","tech","en","const nonce = crypto.randomBytes(16).toString('base64'); // CSP nonce per request"),
 ("benign","tech","en","Set-Cookie: theme=dark; Path=/; Max-Age=31536000"),
 ("benign","tech","en","ETag: \"33a64df551425fcc55e4d42a148795d9f25f89d4\""),
 ("benign","prose","de","Das WLAN-Passwort ändern wir jeden Monat, das aktuelle hängt am Kühlschrank."),
 ("benign","prose","es","La contraseña debe tener al menos 12 caracteres, por ejemplo tres palabras y un número."),
 ("benign","prose","fr","Ton mot de passe a expiré, clique sur « Mot de passe oublié »."),
 ("benign","prose","it","Ho salvato la password del NAS nel portachiavi di iCloud."),
 ("benign","prose","ja","パスワードは8文字以上で、英数字と記号を含めてください。"),
 ("benign","prose","zh","密码错误次数超过5次，账号将被锁定30分钟。"),
 ("benign","prose","ru","Пароль должен содержать минимум 12 символов, включая цифры."),
 ("benign","prose","ar","يجب أن تحتوي كلمة المرور على 12 حرفًا على الأقل."),
 ("benign","prose","ko","비밀번호는 영문, 숫자, 특수문자를 포함해 8자 이상이어야 합니다."),
 ("benign","prose","hi","पासवर्ड कम से कम 12 अक्षरों का होना चाहिए।"),
 # secrets
 ("secret","env","en","PGPASSWORD='Zm9#tQ2vLx' pg_dump -h db.internal -U app app > app.sql"),
 ("secret","env","en","SUPABASE_SERVICE_KEY=sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"),
 ("secret","env","en","COHERE_API_KEY=Xq8mN2pL7vR4tY9bK3cJ6wZ1aF5hD0sG8eU2iO4"),
 ("secret","env","en","ELASTIC_PASSWORD=\"e1@sTic-Kb9Pz\"\nKIBANA_PORT=5601"),
 ("secret","url","en","ftp://anonymous:Ftp!User2027@files.example.org/pub"),
 ("secret","url","en","https://admin:Zx9%21qP7w@jenkins.corp.example/job/deploy/build"),
 ("secret","url","en","sqlserver://sa:Mssql!Str0ng@10.0.0.4:1433?database=erp"),
 ("secret","url","en","wss://stream.example.net/v1?access_token=Qa8Zk3Lm7Np2Rt6Vx1Bc4Df9"),
 ("secret","json","en","{\"type\":\"basic\",\"credentials\":{\"login\":\"exporter\",\"secret\":\"Exp0rt#Key27\"}}"),
 ("secret","json","en","[{\"name\": \"prod\", \"host\": \"10.0.1.5\", \"user\": \"root\", \"pass\": \"R0ot!Prod27\"}]"),
 ("secret","yaml","en","smtp:\n  host: smtp.sendgrid.net\n  user: apikey\n  password: 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"),
 ("secret","chat","en","ok saving this for later: Azure SQL admin = sqladmin, pwd Azur3#Sql2027"),
 ("secret","chat","en","my PIN for the debit card is 7391, don't forget it"),
 ("secret","chat","en","the garage opener code is 55182"),
 ("secret","chat","en","Remember: the safe combination is 12-44-31"),
 ("secret","tool","en","Successfully created API key.\nName: ci-bot\nKey: pk_9f2bQx7LmN3vR8tY1cJ6wZ4aF0hD5sG2\nStore it now, it will not be shown again."),
 ("secret","tool","en","gh auth token\ngho_9f2bQx7LmN3vR8tY1cJ6wZ4aF0hD5sG2eU"),
 ("secret","prose","es","Oye, la contra del wifi es Parana_2027"),
 ("secret","prose","pt","a senha é jabuticaba2027 tudo minúsculo"),
 ("secret","prose","de","Zugangsdaten fürs Portal: Nutzer mmeier, PW Rhein!2027"),
 ("secret","prose","fr","Identifiant : jdupont / mdp : Loire#2027"),
 ("secret","prose","it","utente: mrossi, pass: Tevere!2027"),
 ("secret","prose","nl","inlog: jansen, ww: Maas!2027"),
 ("secret","prose","sv","Lösen till routern: Vattern#2027"),
 ("secret","prose","ru","пасс от вайфая Neva_2027"),
 ("secret","prose","zh","wifi密码：Huangshan2027!"),
 ("secret","prose","ja","Wi-Fi パス: Fujisan_2027"),
 ("secret","prose","ko","와이파이 비번은 Seoraksan2027! 이에요"),
 ("secret","prose","tr","modem şifresi Ararat2027! olarak ayarlandı"),
 ("secret","prose","el","ο κωδικός του wifi είναι Olympos#2027"),
 ("secret","prose","th","รหัสไวไฟ Chaophraya2027!"),
]
for label, family, lang, text in SITTING2:
    add(text, label, family + "_2", lang)
# Fourth sitting, by hand, after the third sitting's changes: Markdown, value-first sentences, tool JSON, agents'
# notes, prose in 11 more languages, technical look-alikes (label, family, lang, text).
SITTING4 = [
 ("secret","md","en","**Password:** `Qv7#kLm2Zp`"),
 ("secret","md","en","- DB user: `app`\n- DB pass: `Qv7#kLm2Zp`"),
 ("secret","chat","en","pwd for the nas is Qv7#kLm2Zp 👍"),
 ("secret","chat","en","Qv7#kLm2Zp is the new wifi password"),
 ("secret","chat","es","Qv7#kLm2Zp es la nueva contraseña del wifi"),
 ("secret","chat","de","Qv7#kLm2Zp ist das neue WLAN-Passwort"),
 ("secret","chat","fr","« Qv7#kLm2Zp », c'est le nouveau mot de passe"),
 ("secret","tool","en","{\"stdout\": \"DB_HOST=db\\nDB_PASS=Qv7#kLm2Zp\\n\", \"exit_code\": 0}"),
 ("secret","tool","en","Output:\n  AdminPassword  Qv7#kLm2Zp\n  AdminUser      azureuser"),
 ("secret","log","en","level=info msg=\"connecting\" dsn=\"postgres://app:Qv7kLm2Zp9x@db:5432/app\""),
 ("secret","config","en","[database]\nconnection = mysql+pymysql://nova:Qv7kLm2Zp9x@controller/nova"),
 ("secret","config","en","datasource.password=Qv7kLm2Zp9x"),
 ("secret","config","en","Environment=\"API_SECRET=Qv7kLm2Zp9xR4tY8\""),
 ("secret","config","en","ENV GITHUB_TOKEN=ghp_Qv7kLm2Zp9xR4tY8bN3cJ6wZ1aF5hD0sG8eU"),
 ("secret","agent","en","Note to self: user's Netflix account — email lena@example.com, password Qv7kLm2Zp9x"),
 ("secret","agent","en","User asked me to remember their locker combination: 14-32-07"),
 ("secret","agent","en","The user's bank PIN is 4921."),
 ("secret","prose","pl","Moje hasło do banku to Qv7kLm2Zp9x, nie mów nikomu"),
 ("secret","prose","cs","heslo na wifi: Qv7kLm2Zp9x"),
 ("secret","prose","hu","A wifi jelszó: Qv7kLm2Zp9x"),
 ("secret","prose","ro","Parola de la router este Qv7kLm2Zp9x"),
 ("secret","prose","fi","Wlan-salasana on Qv7kLm2Zp9x"),
 ("secret","prose","da","Koden til wifi er Qv7kLm2Zp9x"),
 ("secret","prose","uk","мій пароль до пошти Qv7kLm2Zp9x"),
 ("secret","prose","bn","আমার ওয়াইফাই পাসওয়ার্ড Qv7kLm2Zp9x"),
 ("secret","prose","ur","میرا وائی فائی پاس ورڈ Qv7kLm2Zp9x ہے"),
 ("secret","prose","sw","Nenosiri la wifi ni Qv7kLm2Zp9x"),
 ("secret","prose","tl","Ang password ng wifi ay Qv7kLm2Zp9x"),
 ("benign","md","en","**Password:** use the SSO button"),
 ("benign","chat","en","pwd prints the working directory, e.g. /home/lena/projects"),
 ("benign","chat","en","Python3 is the new default interpreter"),
 ("benign","tool","en","{\"stdout\": \"DB_HOST=db\\nDB_PASS_FILE=/run/secrets/db\\n\", \"exit_code\": 0}"),
 ("benign","log","en","level=info msg=\"connecting\" dsn=\"postgres://app@db:5432/app\""),
 ("benign","config","en","datasource.password=${SPRING_DATASOURCE_PASSWORD}"),
 ("benign","agent","en","User prefers to keep passwords in Bitwarden and asked me never to store them."),
 ("benign","agent","en","The user's bank is ING, branch 4921."),
 ("benign","prose","pl","Hasło do banku zmieniam co 3 miesiące"),
 ("benign","prose","ro","Parola de la router este scrisă pe spate"),
 ("benign","prose","sw","Nenosiri la wifi limebadilishwa jana"),
 ("benign","tech","en","The password reset token expires after 15 minutes (PASSWORD_RESET_TIMEOUT=900)."),
 ("benign","tech","en","hashlib.sha256(b'password').hexdigest() == '5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8'"),
 ("benign","tech","en","Use `openssl rand -base64 32` to generate a SECRET_KEY, e.g. 3q2+7w== style output."),
 ("benign","tech","en","Password: ******** (hidden)"),
]
for label, family, lang, text in SITTING3:
    add(text, label, family + "_3", lang)
for label, family, lang, text in SITTING4:
    add(text, label, family + "_4", lang)

with OUT.open("w", encoding="utf-8") as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
print(len(rows), sum(r["label"] == "secret" for r in rows))
