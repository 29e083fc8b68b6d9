"""Build tests/data/secrets_labelled.jsonl: synthetic secrets and benign facts that talk about them.

Every secret is random but format-correct (prefix, length, alphabet, checksum); none is real.
Deterministic: the same seed gives the same file. Run: python tests/data/secrets_generate.py
Fields: text, label (secret|benign), kind (the secret's kind, or the benign fact's theme).
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid
from pathlib import Path
from urllib.parse import quote

SEED = 20261102
OUT = Path(__file__).with_name("secrets_labelled.jsonl")
rng = random.Random(SEED)

UP, LO, DG = string.ascii_uppercase, string.ascii_lowercase, string.digits
ALNUM = UP + LO + DG
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


def r(chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def b64(nbytes: int, urlsafe: bool = False) -> str:
    raw = bytes(rng.getrandbits(8) for _ in range(nbytes))
    return (base64.urlsafe_b64encode(raw).decode().rstrip("=") if urlsafe else base64.b64encode(raw).decode())


def pick(*templates: str) -> str:
    return rng.choice(templates)


# ---------------------------------------------------------------- secret values


def luhn_complete(prefix: str, length: int) -> str:
    body = prefix + r(DG, length - len(prefix) - 1)
    for check in DG:
        digits = body + check
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch) * (2 if i % 2 else 1)
            total += d - 9 if d > 9 else d
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable")


def card() -> str:
    prefix, length = rng.choice([("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("37", 15), ("34", 15),
                                 ("6011", 16), ("65", 16), ("35", 16), ("4", 19)])
    digits = luhn_complete(prefix + r(DG, 2), length)
    style = rng.choice(["space", "dash", "none"])
    if style == "none" or length == 15:
        return digits
    sep = " " if style == "space" else "-"
    return sep.join(digits[i:i + 4] for i in range(0, len(digits), 4))


def iban() -> str:
    country, bban = rng.choice([
        ("DE", r(DG, 18)), ("GB", "NWBK" + r(DG, 14)), ("FR", r(DG, 10) + r(UP + DG, 11) + r(DG, 2)),
        ("NL", "ABNA" + r(DG, 10)), ("ES", r(DG, 20)), ("IT", r(UP, 1) + r(DG, 10) + r(DG, 12)),
        ("BE", r(DG, 12)), ("CH", r(DG, 5) + r(UP + DG, 12)),
    ])
    numeric = int("".join(str(int(c, 36)) for c in bban + country + "00"))
    value = f"{country}{98 - numeric % 97:02d}{bban}"
    if rng.random() < 0.5:
        return " ".join(value[i:i + 4] for i in range(0, len(value), 4))
    return value


def ssn() -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def nino() -> str:
    first, second = rng.choice("ABCEGHJKLMNOPRSTWXYZ"), rng.choice("ABCEGHJKLMNPRSTWXYZ")
    while first + second in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
        first = rng.choice("ABCEHJKLMPRSW")
    d = r(DG, 6)
    if rng.random() < 0.5:
        return f"{first}{second} {d[:2]} {d[2:4]} {d[4:]} {rng.choice('ABCD')}"
    return f"{first}{second}{d}{rng.choice('ABCD')}"


def password() -> str:
    words = ["Sunflower", "Tiger", "Maple", "Orbit", "Copper", "Falcon", "Harbor", "Velvet", "Quartz", "Nimbus"]
    return rng.choice([
        lambda: rng.choice(words) + rng.choice("!#$%&*@") + str(rng.randint(1990, 2030)),
        lambda: rng.choice(words).lower() + str(rng.randint(1, 999)),
        lambda: r(ALNUM + "!@#$%^&*", rng.randint(10, 18)),
        lambda: rng.choice(words)[:4] + r(DG, 3) + rng.choice(words).lower() + "!",
    ])()


def jwt() -> str:
    header = base64.urlsafe_b64encode(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()).decode().rstrip("=")
    claims = {"sub": str(rng.randint(10**6, 10**7)), "name": "Dana Lee", "iat": rng.randint(1_600_000_000, 1_800_000_000)}
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"{header}.{payload}.{b64(32, urlsafe=True)}"


def pem(kind: str) -> str:
    body = "\n".join(b64(48) for _ in range(rng.randint(2, 4)))
    return f"-----BEGIN {kind}-----\n{body}\n-----END {kind}-----"


SECRETS: list[tuple[str, callable, tuple[str, ...]]] = [
    ("aws_access_key", lambda: "AKIA" + r(UP + DG, 16),
     ("AWS access key id: {}", "Deploy user has key {} in us-east-1.", "export AWS_ACCESS_KEY_ID={}")),
    ("aws_access_key", lambda: "ASIA" + r(UP + DG, 16), ("The temporary STS key was {} this morning.",)),
    ("aws_secret_key", lambda: r(ALNUM + "/+", 40),
     ("aws_secret_access_key = {}", "AWS secret key is {}", "AWS_SECRET_ACCESS_KEY={}")),
    ("gcp_api_key", lambda: "AIza" + r(URLSAFE, 35), ("Maps API key: {}", "Use {} for the Gemini calls.")),
    ("gcp_oauth", lambda: "GOCSPX-" + r(URLSAFE, 28), ("Google OAuth client secret is {}",)),
    ("gcp_oauth", lambda: "ya29." + r(URLSAFE, 80), ("Current Google access token {}",)),
    ("gcp_service_account", lambda: '{"type": "service_account", "project_id": "acme-prod", "private_key_id": "'
     + r(HEX, 40) + '", "client_email": "ci@acme-prod.iam.gserviceaccount.com"}', ("Service account JSON: {}",)),
    ("azure_storage_key", lambda: "DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=" + b64(64)
     + ";EndpointSuffix=core.windows.net", ("Blob storage connection: {}",)),
    ("azure_client_secret", lambda: r(ALNUM, 3) + rng.choice(DG) + "Q~" + r(ALNUM + "_~.-", 34),
     ("Entra app client secret: {}", "The Azure AD secret for the bot is {}")),
    ("azure_sas_token", lambda: "https://acmelogs.blob.core.windows.net/exports/day.csv?sv=2022-11-02&ss=b&srt=o&sp=r"
     "&se=2026-12-31T00:00:00Z&sig=" + quote(b64(32), safe=""), ("Download link with SAS: {}",)),
    ("openai_key", lambda: "sk-proj-" + r(URLSAFE, rng.randint(48, 156)),
     ("My OpenAI key is {}", "OPENAI_API_KEY={}", "use {} for the eval runs")),
    ("openai_key", lambda: "sk-" + r(ALNUM, 20) + "T3BlbkFJ" + r(ALNUM, 20), ("Old OpenAI key: {}",)),
    ("openai_key", lambda: "sk-svcacct-" + r(URLSAFE, 60), ("Service account key for the batch job: {}",)),
    ("anthropic_key", lambda: "sk-ant-api03-" + r(URLSAFE, 93) + "AA",
     ("My Anthropic key is {}", "ANTHROPIC_API_KEY={}", "Claude key for staging: {}")),
    ("anthropic_key", lambda: "sk-ant-admin01-" + r(URLSAFE, 93) + "AA", ("Admin key {} (do not share)",)),
    ("huggingface_token", lambda: "hf_" + r(ALNUM, 34),
     ("HF token: {}", "huggingface-cli login --token {}", "My Hugging Face token is {}")),
    ("github_token", lambda: rng.choice(["ghp_", "gho_", "ghs_", "ghu_"]) + r(ALNUM, 36),
     ("GitHub token {}", "git clone https://{}@github.com/acme/api.git", "GH_TOKEN={}")),
    ("github_token", lambda: "github_pat_" + r(ALNUM, 22) + "_" + r(ALNUM, 59), ("Fine-grained PAT: {}",)),
    ("gitlab_token", lambda: "glpat-" + r(URLSAFE, 20), ("GitLab token {}", "CI uses GITLAB_TOKEN={}")),
    ("slack_token", lambda: "xoxb-" + r(DG, 11) + "-" + r(DG, 13) + "-" + r(ALNUM, 24),
     ("Slack bot token: {}", "The deploy bot posts with {}")),
    ("slack_token", lambda: "xoxp-" + r(DG, 11) + "-" + r(DG, 12) + "-" + r(DG, 13) + "-" + r(HEX, 32),
     ("My Slack user token {}",)),
    ("slack_webhook", lambda: "https://hooks.slack.com/services/T" + r(UP + DG, 8) + "/B" + r(UP + DG, 10) + "/"
     + r(ALNUM, 24), ("Alerts go to {}",)),
    ("stripe_key", lambda: rng.choice(["sk_live_", "rk_live_", "sk_test_"]) + r(ALNUM, rng.randint(24, 99)),
     ("Stripe secret key: {}", "STRIPE_KEY={}")),
    ("stripe_key", lambda: "whsec_" + r(ALNUM, 32), ("Webhook signing secret {}",)),
    ("npm_token", lambda: "npm_" + r(ALNUM, 36), ("//registry.npmjs.org/:_authToken={}", "npm token {}")),
    ("pypi_token", lambda: "pypi-AgEIcHlwaS5vcmc" + r(URLSAFE, 120), ("PyPI upload token: {}",)),
    ("jwt", jwt, ("Session JWT: {}", "Authorization header had {}", "curl -H 'X-Auth: {}' ...")),
    ("private_key", lambda: pem(rng.choice(["RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY",
                                            "PRIVATE KEY", "ENCRYPTED PRIVATE KEY"])),
     ("Deploy key:\n{}", "{}")),
    ("private_key", lambda: pem("PGP PRIVATE KEY BLOCK"), ("My PGP key: {}",)),
    ("connection_string", lambda: pick("postgresql", "postgres", "mysql", "mongodb+srv", "amqp") + "://"
     + pick("app", "admin", "svc_reports", "root") + ":" + password().replace("@", "%40").replace("/", "")
     + "@" + pick("db.internal", "10.0.3.12", "cluster0.abcde.mongodb.net", "mq.acme.io") + ":5432/prod",
     ("DATABASE_URL={}", "Prod database is at {}", "Connect with {}")),
    ("connection_string", lambda: "redis://:" + r(ALNUM, 24) + "@cache.acme.io:6379/0", ("Cache URL {}",)),
    ("connection_string", lambda: "Server=tcp:acme.database.windows.net,1433;Database=sales;User ID=report;Password="
     + password().replace(";", "") + ";Encrypt=True;", ("SQL Server connection string: {}",)),
    ("password", password,
     ("My password is {}", "Wifi password: {}", "The Grafana admin password is '{}'", "pw: {}",
      "Password for the staging DB was changed to {}", "login is dana / password {}", "passwd={}",
      "My laptop password is \"{}\"", "The router password is now {}")),
    ("password", lambda: " ".join(rng.sample(["correct", "horse", "battery", "staple", "purple", "monkey",
                                              "dishwasher", "orbit"], 4)),
     ("The vault passphrase is \"{}\"", "Passphrase: '{}'")),
    ("pin", lambda: r(DG, rng.choice([4, 4, 6])),
     ("My bank PIN is {}", "PIN: {}", "The door code is {}", "Phone passcode {}", "SIM PIN is {}",
      "Alarm code for the office: {}")),
    ("card_number", card,
     ("My card number is {}", "Visa {} exp 04/29", "Pay with {}", "Company card: {}")),
    ("us_ssn", ssn, ("My SSN is {}", "Social security number {}", "SSN: {}")),
    ("us_ssn", lambda: ssn().replace("-", ""), ("SSN {}", "social security number: {}")),
    ("uk_nino", nino, ("National Insurance number {}", "My NI number is {}", "NINO: {}")),
    ("iban", iban, ("IBAN {}", "Pay rent to {}", "My bank account: {}")),
    ("bearer_token", lambda: r(ALNUM + "._-", 48), ("Authorization: Bearer {}", "call it with Bearer {}")),
    ("api_key", lambda: r(HEX, 32), ("api_key = {}", "The Mailchimp API key is {}", "X-API-Key: {}")),
    ("api_key", lambda: "sk-or-v1-" + r(HEX, 64), ("OpenRouter key {}",)),
    ("api_key", lambda: "sk-" + r(HEX, 32), ("DeepSeek key: {}",)),
    ("api_key", lambda: r(ALNUM, 40), ("client_secret: {}", "ACME_TOKEN={}", "secret_key = '{}'")),
    ("llm_provider_key", lambda: rng.choice(["gsk_" + r(ALNUM, 52), "xai-" + r(ALNUM, 80), "r8_" + r(ALNUM, 37),
                                             "pplx-" + r(ALNUM, 48), "lsv2_pt_" + r(HEX, 32) + "_" + r(HEX, 10)]),
     ("LLM key for the router: {}", "Use {} for inference")),
    ("saas_token", lambda: rng.choice(["dop_v1_" + r(HEX, 64), "dapi" + r(HEX, 32), "hvs." + r(URLSAFE, 90),
                                       "shpat_" + r(HEX, 32), "key-" + r(HEX, 32), "lin_api_" + r(ALNUM, 40),
                                       "NRAK-" + r(UP + DG, 27), "sbp_" + r(HEX, 40)]),
     ("Token for the deploy script: {}", "the ops token is {}")),
    ("sendgrid_key", lambda: "SG." + r(URLSAFE, 22) + "." + r(URLSAFE, 43), ("SendGrid key {}",)),
    ("twilio_key", lambda: "SK" + r(HEX, 32), ("Twilio API key SID {}",)),
    ("telegram_bot_token", lambda: str(rng.randint(10**8, 10**10 - 1)) + ":AA" + r(URLSAFE, 33),
     ("Telegram bot token {}",)),
    ("high_entropy_string", lambda: b64(30),
     ("The new secret is {}", "Here is what the admin sent me: {}", "encryption key {}")),
]

# Hard cases the filter is expected to miss, kept so the report stays honest.
HARD_SECRETS = [
    ("password", "My password is bluebird"),
    ("password", "Email login: dana@acme.io / sunshine"),
    ("pin", "The combination is twelve thirty four"),
]

# ---------------------------------------------------------------- benign facts

BENIGN_TALK = """Rotates API keys every 90 days.
Uses 1Password for team passwords.
The token budget is 8k.
Keeps secrets in AWS Secrets Manager, never in the repo.
Prefers short-lived tokens over long-lived API keys.
Password must be at least 16 characters.
Uses Bitwarden as a password manager.
The API key is stored in the OPENAI_API_KEY environment variable.
api_key=os.environ["OPENAI_API_KEY"]
Set max_tokens=4096 for summaries.
Reset my password last week after the phishing test.
JWTs expire after 15 minutes in their auth service.
SSH keys are rotated quarterly.
Their Stripe integration uses restricted keys only.
Asked how to revoke a GitHub personal access token.
Team enforces 2FA and hardware security keys.
Likes passwordless login with passkeys.
Anthropic keys start with sk-ant-, OpenAI keys with sk- or sk-proj-.
GitHub tokens begin with ghp_ and are 40 characters long.
AWS access key ids start with AKIA.
Hugging Face tokens start with hf_.
Never paste secrets into chat.
The secret to good soup is patience.
Their company's secret sauce is the ranking model.
Wants the password field masked in the UI.
Token limit for the embedding model is 512.
Context window is 200k tokens.
Uses HashiCorp Vault for database credentials.
The password reset flow sends a magic link.
Forgot the wifi password again.
Asked for a regex that validates API key formats.
The auth token is refreshed every hour.
Session tokens are stored in Redis with a 24h TTL.
The PIN pad on the office door is broken.
Wants to pin numpy to 1.26 in requirements.
Pinned the Python version to 3.12 in CI.
Uses a 6-digit PIN on the phone.
Card payments go through Stripe Checkout.
Never stores card numbers; uses Stripe tokens instead.
Social security numbers must be encrypted at rest.
IBAN validation uses the mod-97 check.
UK National Insurance numbers have two letters, six digits and a suffix letter.
Private keys live in the HSM, not on disk.
The public key is published at /.well-known/jwks.json.
Uses age for encrypting secrets in git.
Prefers sops over git-crypt for secret files.
Keyboard shortcut for search is Cmd+K.
The primary key of the users table is a UUID.
Foreign keys are enforced in SQLite with PRAGMA foreign_keys = ON.
Uses key=value pairs in the config file.
Rate limit is 60 requests per minute per API key.
Token bucket refills at 10 tokens per second.
Tokenizer is cl100k_base.
Counts tokens with tiktoken.
The password policy requires rotation every 180 days.
password is required for the admin panel
The password is stored hashed with argon2id.
The password was changed after the incident.
Their API key was leaked in a public repo last year, so they now use secret scanning.
The secret key setting in Django comes from the environment.
SECRET_KEY is loaded from settings.
Uses OIDC tokens for GitHub Actions to AWS.
OAuth client id is public; the client secret is not.
Bearer tokens are sent in the Authorization header.
Basic auth is disabled on the API.
Set the token to expire after 30 days.
Credentials are injected by the CI runner.
The access key is rotated by a Lambda every week.
Keeps the recovery codes printed in a safe.
Uses YubiKey 5C for SSH.
Ask before rotating the Slack bot token.
The npm token is scoped to the @acme org.
PyPI publishing uses trusted publishing, no tokens.
Uses GitLab CI with masked variables.
Wants sk-learn style fit/predict APIs.
Uses scikit-learn (sk-learn-compatible-estimators) for baselines.
Stripe test mode keys start with sk_test_.
The webhook secret is verified with HMAC-SHA256.
The JWT secret is 32 bytes from os.urandom.
Passwords are compared with hmac.compare_digest.
The login form has a show-password toggle.
PIN reset requires a branch visit.
The passcode screen locks after 5 attempts.
Door code changes every month; ask Sam.
CVV is never stored per PCI DSS.
Card expiry is checked client-side.
Credit card fields use autocomplete=cc-number.
Password hints are disabled.
The secrets file is .env and it is git-ignored.
Tokens per second on the 2-core box is about 14.
The key insight was to cache embeddings.
The key takeaway: keep memory small.
The key is to ship small PRs.
Main keyboard is a Keychron K2.
Token: the smallest unit a model reads.
Secret Santa budget is 25 euros.
Password managers: 1Password at work, KeePassXC at home.
The API key header name is X-API-Key.
Keys in the JSON are snake_case.
The dictionary keys are sorted before hashing.
Uses Let's Encrypt certificates renewed by certbot.
The TLS certificate expires on 2026-03-01.
The master password is never written down.
Prefers environment variables over config files for secrets.
The GitHub App private key is in the vault under ci/github-app.
Password: see 1Password entry 'Staging DB'.
Password: stored in Vault at secret/staging/db.
The password for the staging DB is in 1Password.
The API token for Jira is in the team vault.
api_key: ${ACME_API_KEY}
password: <your-password>
DATABASE_URL=postgres://user:password@localhost:5432/app
postgres://app:${DB_PASSWORD}@db:5432/app
mysql://root:****@localhost/test
redis://localhost:6379/0
https://user@example.com/repo.git
The token is valid for 3600 seconds.
Uses 4096-bit RSA keys for SSH.
Uses ed25519 keys for signing commits.
-----BEGIN PUBLIC KEY----- is what the verifier expects.
Generates keys with ssh-keygen -t ed25519.
The password is case-sensitive.
The default password must be changed on first login.
Her secret is that she writes tests first.
Authentication uses bearer tokens from Auth0.
Tokens are JWTs signed with RS256.
A JWT has three base64url parts separated by dots.
Stores only the last four digits of cards.
Card ending in 4242 is the test card.
Keeps the spare key with a neighbour.
Uses a PIN-compatible chip for the sensor board.
GPIO pin 17 drives the LED.
Pin 3 of the header is SDA.
Pass the token budget as an argument.
pass is a no-op statement in Python.
Uses pass for password management on Linux.
The access token lifetime is one hour.
The refresh token is rotated on every use.
Secret rotation is automated with AWS Secrets Manager rotation lambdas.
Password complexity: upper, lower, digit, symbol.
passwords.txt was deleted from the shared drive.
The PIN is 4 digits long.
pin: true in the YAML keeps the message on top.
Secret: none.
Uses API key auth (header X-API-Key: <key>).
Her password hint is the dog's name.
The Stripe publishable key goes in the frontend.
The secret access key must be 40 characters.
The password is at least 12 characters and is rotated yearly.
Password is the same as the Wi-Fi one, ask Ana.
The admin password was reset by IT on Monday.
The PIN for the conference phone is on the wiki.
My API key expired yesterday; need a new one.
Changed the password to something longer.
Use the token from the CI secret store.
The password is hunter-style? No, it is generated by 1Password.
The token is in the header, not the query string.
A good passphrase has four random words.
password hashing uses argon2id with 64 MiB memory
Session secret length is 64 bytes.
Token count for that prompt was 1,532.
Key rotation happens on 2026-01-01.
API keys are scoped per project.
Secret scanning is enabled on all repos.""".splitlines()

BENIGN_GENERAL = """Prefers answers with Python code, not pseudocode.
Deploys to AWS Lambda with Python 3.12.
Team uses Postgres 16 for all services.
Wants type hints in every example.
Lives in Lisbon and works remotely.
Prefers dark mode in every editor.
Writes commit messages in the imperative mood.
Uses uv instead of pip for new projects.
Their main service is written in Go 1.22.
Dislikes long meetings; prefers async updates.
The team ships on Tuesdays and Thursdays.
Uses Neovim with LazyVim.
Vegetarian; allergic to peanuts.
Has two kids and a dog named Biscuit.
Prefers metric units.
Reads papers on retrieval-augmented generation.
Is learning Rust in the evenings.
The product launch is planned for March.
Uses Terraform 1.7 for infrastructure.
Their Kubernetes cluster runs on EKS 1.29.
Monitoring is Grafana + Prometheus.
Prefers pytest over unittest.
Runs benchmarks on a 2-core VM.
Wants answers under 200 words.
Likes examples that run offline.
Their company has 45 employees.
Works in the UTC+1 timezone.
Prefers British spelling.
The budget for the project is 12,000 euros.
Uses a MacBook Pro M3 with 36 GB RAM.
Has a standing desk and a 34-inch monitor.
Favourite database is SQLite.
Uses FastAPI for HTTP services.
Uses React 18 with TypeScript on the frontend.
The repository is github.com/acme/api.
Design doc lives at https://docs.example.com/design/memory-v2.
The CI pipeline takes about 12 minutes.
Uses Sentry for error tracking.
Prefers squash merges.
The on-call rotation is weekly.
The office is at 221B Baker Street.
Birthday is in July.
Speaks Portuguese and English.
Drinks coffee black.
Plays chess online as a hobby.
Runs a half marathon every spring.
The team uses Linear for issues.
Uses Docker Compose for local development.
Wants to migrate from MySQL 5.7 to Postgres 16.
The data warehouse is BigQuery.
Stores embeddings in pgvector.
Prefers HNSW indexes over IVFFlat.
Their p95 latency goal is 200 ms.
Uses Redis 7 for caching.
Uses Celery with RabbitMQ for background jobs.
Their mobile app is built with Flutter 3.19.
The API is versioned as /v2/.
Likes concise code reviews.
Uses conventional commits.
Asked to be reminded about the tax deadline on 2026-04-15.
The meeting with the auditors is on 14 May 2026 at 10:00.
Flight to Berlin is LH 1171 on 3 June.
The hotel booking reference is BK-448120.
Loves hiking in the Alps.
Uses Obsidian for notes.
Uses Zotero for references.
Wants explanations with diagrams.
Works on a monorepo with Bazel.
The staging cluster is in eu-west-1.
Uses Cloudflare for DNS.
The domain renews on 2026-09-30.
Has a meeting with Dr. Patel every Monday.
The team retro is every other Friday.
Their coding standard is PEP 8 with 100-character lines.
Uses ruff and mypy in pre-commit.
Uses GitHub Actions for CI.
Release tags look like v2.14.3.
The API returns ISO 8601 timestamps.
Uses OpenTelemetry for tracing.
Prefers tabs over spaces in Makefiles (required anyway).
The project codename is Bluebird.
Has read Designing Data-Intensive Applications twice.
Uses Anki for spaced repetition.
Their main customer is in the logistics sector.
Wants weekly summaries on Friday afternoon.""".splitlines()

SHA_TEMPLATES = ("Fixed in commit {}.", "Reverted {} because it broke CI.", "The bug was introduced in {}.")


def generated_benign() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for _ in range(10):
        out.append(("commit_hash", rng.choice(SHA_TEMPLATES).format(r(HEX, rng.choice([7, 12, 40])))))
    for _ in range(6):
        out.append(("uuid", f"The tenant id is {uuid.UUID(int=rng.getrandbits(128), version=4)}."))
    for _ in range(4):
        out.append(("checksum", f"sha256 of the release tarball is {r(HEX, 64)}."))
    for _ in range(10):
        out.append(("version", rng.choice([
            "Upgraded to numpy {}.{}.{}", "Runs Python {}.{}.{}", "Node version pinned to {}.{}.{}",
            "Postgres {}.{} with pgvector 0.{}.0"]).format(rng.randint(1, 22), rng.randint(0, 30), rng.randint(0, 12))))
    for _ in range(10):
        y, m, d = rng.randint(2020, 2030), rng.randint(1, 12), rng.randint(1, 28)
        out.append(("date", rng.choice([
            f"Started the job on {y}-{m:02d}-{d:02d}.", f"Renewal due {d:02d}/{m:02d}/{y}.",
            f"Last backup {y}-{m:02d}-{d:02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00Z."])))
    for _ in range(12):
        out.append(("phone", rng.choice([
            "Call the office at +1 415 555 {:04d}.", "Mobile: +44 7700 900{:03d}", "Support line (800) 555-{:04d}",
            "Reach Sam on +351 912 345 {:03d}.", "Fax 030 1234 {:04d}"]).format(rng.randint(0, 999))))
    for _ in range(8):
        out.append(("number", rng.choice([
            "Order number {}.", "Invoice INV-{} is unpaid.", "Tracking number {}.", "Customer id {}.",
            "Employee number {}."]).format(r(DG, rng.choice([6, 8, 10, 12, 14])))))
    for _ in range(4):
        out.append(("number", f"ISBN 978-{r(DG, 1)}-{r(DG, 3)}-{r(DG, 5)}-{r(DG, 1)}"))
    for _ in range(4):
        out.append(("network", f"The NAS is at 192.168.{rng.randint(0, 255)}.{rng.randint(1, 254)}, port {rng.randint(1024, 65535)}."))
    for _ in range(4):
        out.append(("url", rng.choice([
            "Video recap: https://www.youtube.com/watch?v={}", "Doc: https://docs.google.com/document/d/{}/edit",
            "PR https://github.com/acme/api/pull/{}"]).format(
                r(URLSAFE, 11) if rng.random() < 0.3 else r(URLSAFE, 44) if rng.random() < 0.5 else str(rng.randint(1, 9999)))))
    ids = [
        lambda: "Stripe customer cus_" + r(ALNUM, 14), lambda: "Payment intent pi_3" + r(ALNUM, 23),
        lambda: "Anthropic request id req_011C" + r(ALNUM, 20), lambda: "The reply was msg_01" + r(ALNUM, 22),
        lambda: "OpenAI completion chatcmpl-" + r(ALNUM, 29), lambda: "Assistant id asst_" + r(ALNUM, 24),
        lambda: "Lambda ARN arn:aws:lambda:eu-west-1:" + r(DG, 12) + ":function:ingest",
        lambda: "AWS account id " + r(DG, 12), lambda: "Image ghcr.io/acme/api@sha256:" + r(HEX, 64),
        lambda: "YouTube video id " + r(URLSAFE, 11), lambda: "Serial number C02" + r(UP + DG, 9),
        lambda: "VIN 1HGCM8" + r(UP + DG, 11), lambda: "S3 path s3://acme-data/raw/2026/06/01/" + r(LO, 8) + ".parquet",
        lambda: "MAC address " + ":".join(r(HEX, 2) for _ in range(6)),
        lambda: "Uses model claude-sonnet-4-5-2025" + r(DG, 4) + " for summaries.",
        lambda: "Uses gpt-4o-mini-2024-07-18 for classification.",
        lambda: "Tiny PNG: data:image/png;base64," + b64(60),
        lambda: "Order " + luhn_complete("9", 16) + " shipped.",
        lambda: "Box id " + luhn_complete("1", 16) + ".",
        lambda: "Example IBAN format: DE00 1234 5678 9012 3456 78 (not real).",
        lambda: "Sort code 20-00-00 at Barclays.", lambda: "Postcode SW1A 1AA.",
        lambda: "Booking code " + r(UP + DG, 6), lambda: "Coordinates 38.7223, -9.1393.",
        lambda: "GUID {" + str(uuid.UUID(int=rng.getrandbits(128))).upper() + "}",
    ]
    for make in ids:
        out.append(("identifier", make()))
    for _ in range(4):
        out.append(("code", rng.choice([
            "Prefers `token = tokenizer.encode(text)` over manual splitting.",
            "Uses `password = getpass.getpass()` in scripts.",
            "config['api_key'] comes from the keyring.",
            "client = OpenAI(api_key=settings.openai_api_key)"])))
    return out


# ---------------------------------------------------------------- credentials in prose, many languages

# User / password pairs and "password is X" in other languages ({} is a generated password, {u} a user name).
PASSWORD_PROSE = [
    ("en", "Login for the NAS: {u} / {}"), ("en", "Router credentials: {u} / {}"),
    ("en", "The staging box login is {u} / {}"), ("en", "Creds for the printer admin page: {u} / {}"),
    ("en", "Account for the family Netflix: {u} / {}"), ("en", "username {u} password {}"),
    ("de", "Das Passwort ist {}"), ("de", "passwort ist {}"), ("de", "Mein Kennwort lautet {}"),
    ("de", "Zugangsdaten fürs NAS: {u} / {}"), ("de", "WLAN-Passwort: {}"), ("de", "Passwort für den Server: {}"),
    ("fr", "mot de passe: {}"), ("fr", "Le mot de passe du wifi est {}"), ("fr", "Mon mot de passe est {}"),
    ("fr", "Identifiants du routeur : {u} / {}"), ("fr", "mdp : {}"),
    ("es", "contraseña: {}"), ("es", "La contraseña del wifi es {}"), ("es", "Mi clave es {}"),
    ("es", "Usuario y contraseña del router: {u} / {}"),
    ("it", "La password del wifi è {}"), ("it", "password: {} (non condividerla)"), ("it", "Credenziali del NAS: {u} / {}"),
    ("pt", "A senha do wifi é {}"), ("pt", "senha: {}"), ("pt", "Minha palavra-passe é {}"),
    ("nl", "Het wachtwoord is {}"), ("nl", "wachtwoord: {}"),
    ("pl", "Hasło do routera: {}"), ("pl", "Moje hasło to {}"),
    ("sv", "Lösenordet är {}"), ("tr", "Şifre: {}"), ("tr", "Wifi şifresi {}"),
    ("ru", "Пароль: {}"), ("ru", "Мой пароль {}"), ("ru", "пароль от почты — {}"),
    ("zh", "密码是 {}"), ("zh", "我的密码：{}"), ("zh", "WiFi密码是{}"),
    ("ja", "パスワードは {} です"), ("ja", "パスワード：{}"),
    ("ko", "비밀번호는 {} 입니다"), ("ko", "비밀번호: {}"),
]
USERS = ["admin", "root", "dana", "pi", "ops", "dana.lee@acme.io", "backup", "nas-admin"]

# Look-alikes: passwords, logins and "pass" talked about, in the same languages.
CREDENTIAL_TALK = """Uses a password manager for every account.
Sent the password reset link to IT.
Pass the salt, please, is her favourite dinner joke.
The login page is at /admin / dashboard.
Login options: Google / GitHub / email.
Accounts: personal / work, both in Gmail.
Username format is firstname.lastname.
The password must have 12 characters, one digit and one symbol.
Forgot the router password; reset it with the button.
The NAS login is in 1Password under 'Home NAS'.
Credentials for the printer are on the sticker underneath.
Login for the NAS: see the shared vault.
Router credentials: ask Sam.
Changed the wifi password yesterday.
Shared the guest wifi password with the neighbours.
Password rotation is every 90 days.
The passport expires in 2027.
Bus pass costs 40 euros a month.
Got a boarding pass for flight TP 1234.
Ski pass for Val Thorens booked for February.
Pass-through mode on the headphones is useful in traffic.
The mountain pass was closed because of snow.
Passed the driving test on the first try.
User / group permissions are managed in LDAP.
Admin / editor / viewer are the three roles.
Read / write access is granted per project.
Login: SSO via Okta.
Username: dana on every site.
Das Passwort ist zu kurz.
Passwort vergessen? Der Link kommt per E-Mail.
Nutzt einen Passwortmanager.
Zugangsdaten liegen im Tresor.
Mot de passe oublié : utiliser le lien de réinitialisation.
Le mot de passe doit contenir 12 caractères.
Utilise un gestionnaire de mots de passe.
Les identifiants sont dans le coffre-fort.
La contraseña debe tener al menos 12 caracteres.
Olvidó la contraseña del correo otra vez.
Usa un gestor de contraseñas.
La password del wifi è sul router.
La senha do banco foi alterada ontem.
Usa um gerenciador de senhas.
Het wachtwoord is verlopen.
Hasło musi mieć 12 znaków.
Lösenordet är för kort.
Şifre yenileme bağlantısı gönderildi.
Пароль нужно менять каждые 90 дней.
Забыл пароль от почты.
密码管理器用的是 Bitwarden。
忘记了邮箱密码。
パスワードを忘れた。
パスワードは12文字以上が必要です。
비밀번호를 잊어버렸다.
비밀번호 관리자를 사용한다.
Password hints are disabled on the family laptop.
The password field should show a strength meter.
Her password is long and random, generated by the manager.
The password is in the envelope in the safe.
The wifi password is on the fridge.
Password: the usual one.
The admin password was changed after the audit.
Temporary password expires after first login.
Login with your company email / SSO.
The pass rate for the exam was 82%.
Uses pass, the Unix password manager.
Wants a passwordless login with passkeys.
The login for the staging box is the same as production.
Shares Netflix with family; the account is in Ana's name.
Account number is on the invoice, not in memory.
The kids' tablet has a four-digit parental lock.
Keeps the recovery codes offline.
Password strength meter uses zxcvbn.
The PIN pad is next to the door.
Contraseña del wifi: pedir en recepción.
Mot de passe : voir le gestionnaire.
Passwort: siehe Passwortmanager.
密码：见密码管理器。
Wifi-Passwort steht auf dem Router.
The login is admin / admin by default on many routers, so change it.
Default credentials are admin / password on the test VM.""".splitlines()


# A second batch written after the rules above were measured, as a fresh check (it caught 28 of the
# 30 secrets and refused none of the 30 look-alikes before the rules learned Wi-Fi keys and "şifrem").
SECOND_ROUND_SECRETS = [
    'Password for the VPN: Blu3-Ocean!42',
    'The wifi key is Tr0pic@l2025',
    'My Gmail password is now Sunset#1988',
    'login: dana.lee / Hx7!pQ2rZ',
    'Creds: root / T0ughN00dle$',
    "Wi-Fi: network 'Casa', password 'Lim0nada99'",
    'Das WLAN-Kennwort ist Apfel#Baum77',
    'Mein Passwort für Netflix lautet Kino2024!',
    'Benutzer: admin, Passwort: Sicher!234',
    'Le mot de passe de la box est Fromage!77',
    'Identifiant : paul / Motdepasse9!',
    'La contraseña de mi correo es Gato#2021',
    'usuario admin contraseña Playa2023!',
    'La password del router è Pizza!2020',
    'Credenziali: mario / Luigi#1985',
    'A senha do Wi-Fi é Praia@2022',
    'Het wachtwoord van de router is Fiets!123',
    'Hasło do poczty: Kot!2024pl',
    'Lösenord: Sommar2023!',
    'Şifrem Kedi2024!',
    'Пароль от Wi-Fi: Kot2024!',
    'Логин: ivan / Zima2023!',
    '密码：Panda2024!',
    '我的邮箱密码是 Dragon88!',
    'パスワードは Neko2023! です',
    '비밀번호는 Kimchi99! 입니다',
    'Salasana on Kissa2024!',
    'Heslo je Praha2024!',
    'Jelszó: Budapest2024!',
    'Κωδικός: Athina2024!',
]
SECOND_ROUND_LOOK_ALIKES = [
    'Forgot the VPN password again and had to call IT.',
    'The wifi key is on the back of the router.',
    'Changed the Gmail password after the breach notice.',
    'Login: use the company SSO.',
    "Creds are in the shared vault, folder 'infra'.",
    "Wi-Fi network is called 'Casa'.",
    'Das WLAN-Kennwort steht im Handbuch.',
    'Passwort für Netflix ist im Passwortmanager.',
    'Benutzer: admin, Rolle: Lesen.',
    "Le mot de passe de la box est sur l'étiquette.",
    'Identifiant : paul.martin',
    'La contraseña de mi correo caduca cada 90 días.',
    'La password del router va cambiata ogni anno.',
    'A senha do Wi-Fi está na geladeira.',
    'Het wachtwoord is te kort.',
    'Lösenordet måste bytas varje månad.',
    'Şifremi unuttum.',
    'Пароль нужно сменить.',
    '密码在密码管理器里。',
    'パスワードを変更した。',
    '비밀번호를 변경했다.',
    'Salasana on liian lyhyt.',
    'Version 2.3.1 / 2.4.0 migration notes.',
    'Login flow: email / magic link.',
    'Accounts: admin / staff / guest roles.',
    'User: dana (display name Dana Lee).',
    'The password policy: 12+ characters, one symbol.',
    'Username / email both work for sign-in.',
    'Passes: weekly / monthly / yearly.',
    "Login for the NAS: see 1Password entry 'NAS'.",
    'The network code is 4-digit.',
    'Hotspot name is iPhone of Dana.',
]


def credential_rows() -> list[tuple[str, str, str]]:
    """(label, kind, text) rows for the credential-prose extension, in a fixed order."""
    rows: list[tuple[str, str, str]] = []
    for lang, template in PASSWORD_PROSE:
        kind = "user_password" if "{u}" in template else "password"
        rows.append(("secret", f"{kind}_{lang}", template.format(password(), u=rng.choice(USERS))))
    rows += [("benign", "talks_about_credentials", t) for t in CREDENTIAL_TALK if t.strip()]
    rows += [("secret", "credential_second_round", t) for t in SECOND_ROUND_SECRETS]
    rows += [("benign", "credential_second_round", t) for t in SECOND_ROUND_LOOK_ALIKES]
    return rows


def build() -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for kind, make, templates in SECRETS:
        n = max(len(templates), 3)
        for i in range(n):
            rows.append({"text": templates[i % len(templates)].format(make()), "label": "secret", "kind": kind})
    rows += [{"text": t, "label": "secret", "kind": k} for k, t in HARD_SECRETS]
    rows += [{"text": t, "label": "benign", "kind": "talks_about_secrets"} for t in BENIGN_TALK if t.strip()]
    rows += [{"text": t, "label": "benign", "kind": "general"} for t in BENIGN_GENERAL if t.strip()]
    rows += [{"text": t, "label": "benign", "kind": k} for k, t in generated_benign()]
    rows += [{"text": t, "label": label, "kind": k} for label, k, t in credential_rows()]
    return rows


if __name__ == "__main__":
    data = build()
    OUT.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in data), encoding="utf-8")
    counts = {lab: sum(row["label"] == lab for row in data) for lab in ("secret", "benign")}
    print(f"wrote {OUT.name}: {counts}")
