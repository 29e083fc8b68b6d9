"""The inspector shows a research note's page and source id (headless Chromium, as test_inspector_browser)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait
from servers import uvicorn_thread
from test_inspector_browser import browser  # noqa: F401  (the fixture)

from engram.core.memory import Memory
from engram.interfaces.rest import create_app
from engram.core.notes import source_id
from engram.safety.keys import KeyRing

JOB = "job:report-42"
URL = "https://Example.org/reports/wheat-2026/?utm_source=newsletter#results"
CANONICAL = "https://example.org/reports/wheat-2026"


def test_the_inspector_shows_the_source_id_and_url(tmp_path, browser) -> None:  # noqa: F811
    db = str(tmp_path / "notes.db")
    with Memory(db, embedder="hashing") as mem:
        assert mem.remember_note(JOB, "Yield rose 12% under moderate drought.", url=URL).saved
        token = KeyRing(mem.store).create(admin=True)[0]
    wait = WebDriverWait(browser, 30)
    with uvicorn_thread(create_app(lambda: Memory(db, embedder="hashing"))) as base:
        browser.get(base + "/")
        wait.until(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        browser.find_element(By.ID, "key-input").send_keys(token)
        browser.find_element(By.ID, "login-form").submit()
        subject = f"#subjects button[data-subject='{JOB}']"
        wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, subject)))
        browser.find_element(By.CSS_SELECTOR, subject).click()
        wait.until(ec.text_to_be_present_in_element((By.ID, "result-note"), "1 memor"))
        row = browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")[0].text
        assert source_id(URL) in row and CANONICAL in row and "utm_source" not in row
        browser.find_element(By.XPATH, "//button[contains(., 'Yield rose')]").click()
        wait.until(ec.visibility_of_element_located((By.ID, "detail")))
        fields = browser.find_element(By.ID, "detail-fields").text
        assert source_id(URL) in fields and CANONICAL in fields
