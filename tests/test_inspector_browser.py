"""The inspector page, end to end in headless Chromium (Debian's chromium + chromium-driver, via Selenium).

Needs `apt-get install -y chromium chromium-driver` and `pip install selenium`; without them this test
FAILS, it does not skip. Screenshots go to a tmp dir, or to $INSPECTOR_SCREENSHOTS (docs/img to refresh the docs).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait
from servers import uvicorn_thread

from engram.safety.keys import KeyRing
from engram.core.memory import Memory
from engram.interfaces.rest import create_app

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1360,860"]


@pytest.fixture
def seeded(tmp_path):
    """A store with two subjects (one fact replaced by a newer version) and two keys."""
    db = str(tmp_path / "inspector.db")
    with Memory(db, embedder="hashing") as mem:
        mem.remember("user:42", "The team uses Postgres 16 for every service.", source="chat 2026-11-02", now=1_790_000_000)
        mem.remember("user:42", "Prefers answers in French, short and direct.", source="chat 2026-11-03",
                     kind="preference", now=1_790_100_000)
        mem.remember("user:42", "Lives in Lisbon near the river.", source="chat 2026-10-01", key="home", now=1_789_000_000)
        mem.remember("user:42", "Lives in Porto since this autumn.", source="chat 2026-11-05", key="home", now=1_790_200_000)
        mem.remember("user:42", "Deploys run on Postgres-backed Kubernetes jobs.", source="runbook", now=1_790_300_000)
        mem.remember("user:7", "Writes Rust at work and Python at home.", source="chat 2026-11-04")
        ring = KeyRing(mem.store)
        keys = {"admin": ring.create(admin=True, name="ops")[0], "user7": ring.create(["user:7"], name="app")[0]}
    return db, keys


@pytest.fixture
def browser(tmp_path):
    for path in (CHROMIUM, CHROMEDRIVER):  # fail, never skip: CI must install them
        assert Path(path).is_file(), f"{path} is missing: apt-get install -y chromium chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={tmp_path / 'profile'}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("INSPECTOR_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_inspector_end_to_end(seeded, browser, tmp_path):
    db, keys = seeded
    out = shots(tmp_path)
    wait = WebDriverWait(browser, 30)

    def by_id(name: str):
        return browser.find_element(By.ID, name)

    with uvicorn_thread(create_app(lambda: Memory(db, embedder="hashing"))) as base:
        browser.get(base + "/")
        wait.until(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        by_id("key-input").send_keys("egk_wrong")
        by_id("login-form").submit()
        wait.until(ec.text_to_be_present_in_element((By.ID, "login-error"), "unknown or revoked"))
        browser.save_screenshot(str(out / "inspector-login.png"))

        by_id("key-input").clear()
        by_id("key-input").send_keys(keys["admin"])
        by_id("login-form").submit()
        wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#subjects button[data-subject='user:42']")))
        assert "admin" in by_id("who-text").text
        subjects = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#subjects button")]
        assert subjects == ["user:42", "user:7"]

        browser.find_element(By.CSS_SELECTOR, "#subjects button[data-subject='user:42']").click()
        wait.until(ec.text_to_be_present_in_element((By.ID, "result-note"), "4 memories"))

        by_id("query").send_keys("which database does the team use?")
        by_id("search-form").submit()
        wait.until(ec.text_to_be_present_in_element((By.ID, "result-note"), "best matches"))
        rows = browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")
        assert "Postgres 16" in rows[0].text
        explain = rows[0].find_element(By.CSS_SELECTOR, ".explain").text
        assert "keyword" in explain and "vector" in explain  # the score is explained
        browser.save_screenshot(str(out / "inspector-search.png"))

        # An item with its source, times and history (the version it replaced).
        browser.find_element(By.ID, "show-all").click()
        wait.until(ec.text_to_be_present_in_element((By.ID, "result-note"), "newest first"))
        browser.find_element(By.XPATH, "//button[contains(., 'Porto')]").click()
        wait.until(ec.visibility_of_element_located((By.ID, "detail")))
        wait.until(ec.text_to_be_present_in_element((By.ID, "detail-history"), "Lisbon"))
        assert "chat 2026-11-05" in by_id("detail-fields").text
        assert "(current)" in by_id("detail-history").find_elements(By.TAG_NAME, "li")[-1].text
        browser.save_screenshot(str(out / "inspector-item.png"))

        # Forget with a preview: nothing goes until confirmed.
        by_id("forget-match").send_keys("postgres")
        by_id("forget-form").submit()
        wait.until(ec.visibility_of_element_located((By.ID, "forget-preview")))
        assert "2 memories" in by_id("forget-summary").text
        browser.save_screenshot(str(out / "inspector-forget.png"))
        with Memory(db, embedder="hashing") as mem:
            assert len(mem.matches("user:42", "postgres")) == 2
        by_id("forget-confirm").click()
        wait.until(ec.text_to_be_present_in_element((By.ID, "forget-done"), "Forgot 2"))
        with Memory(db, embedder="hashing") as mem:
            assert mem.matches("user:42", "postgres") == []

        # A scoped key sees only its own subject.
        by_id("sign-out").click()
        by_id("key-input").send_keys(keys["user7"])
        by_id("login-form").submit()
        wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#subjects button[data-subject='user:7']")))
        assert [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#subjects button")] == ["user:7"]
        by_id("subject-input").send_keys("user:42")
        by_id("subject-form").submit()
        wait.until(ec.text_to_be_present_in_element((By.ID, "status"), "no grant on subject 'user:42'"))
