// Engram inspector: plain DOM over the REST API. Text is only ever set with textContent.
"use strict";

const KEY = "engram.apiKey";
const $ = (id) => document.getElementById(id);
let subject = null;
let selected = null;
let latest = 0;  // only the newest list/search request may draw the table

async function api(method, path, body) {
  const headers = {Authorization: "Bearer " + sessionStorage.getItem(KEY)};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = (data.error && data.error.message) || response.statusText;
    if (response.status === 401) signOut(message);
    throw new Error(message);
  }
  return data;
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function show(message) { $("status").textContent = message || ""; }
const day = (iso) => (iso || "").slice(0, 19).replace("T", " ");

async function signIn(event) {
  if (event) event.preventDefault();
  const typed = $("key-input").value.trim();
  if (typed) sessionStorage.setItem(KEY, typed);
  if (!sessionStorage.getItem(KEY)) return;
  try {
    const me = await api("GET", "/v1/me");
    $("who-text").textContent = `key ${me.id}` + (me.name ? ` (${me.name})` : "") +
      (me.admin ? " · admin" : " · " + me.subjects.join(", "));
    $("login").hidden = true; $("app").hidden = false; $("who").hidden = false;
    $("key-input").value = ""; $("login-error").textContent = "";
    await loadSubjects();
  } catch (err) {
    $("login-error").textContent = err.message;
  }
}

function signOut(message) {
  sessionStorage.removeItem(KEY);
  $("login").hidden = false; $("app").hidden = true; $("who").hidden = true;
  $("login-error").textContent = typeof message === "string" ? message : "";
}

async function loadSubjects() {
  const list = $("subjects");
  list.replaceChildren();
  for (const row of await api("GET", "/v1/subjects")) {
    const item = el("li");
    const link = el("button", row.subject, "link");
    link.dataset.subject = row.subject;
    link.addEventListener("click", () => openSubject(row.subject));
    item.append(link, el("span", ` ${row.items}`, "count"));
    list.append(item);
  }
  if (!list.children.length) list.append(el("li", "(no subjects yet)", "note"));
}

async function openSubject(name) {
  subject = name; show("");
  $("subject-title").textContent = name;
  $("forget-preview").hidden = true; $("forget-done").textContent = "";
  await listAll();
}

async function listAll() {
  if (!subject) return;
  const mine = ++latest;
  try {
    const items = await api("GET", "/v1/memories?subject=" + encodeURIComponent(subject) + "&limit=200");
    if (mine !== latest) return;
    renderRows(items.map((item) => ({item})), `${items.length} memories, newest first`);
  } catch (err) { show(err.message); }
}

async function search(event) {
  event.preventDefault();
  const query = $("query").value.trim();
  if (!subject || !query) return listAll();
  const mine = ++latest;
  try {
    const hits = await api("POST", "/v1/recall", {subject, query, k: 10, explain: true});
    if (mine !== latest) return;
    renderRows(hits.map((hit) => ({item: hit, score: hit.score, explain: hit.explain})),
               `${hits.length} best matches for “${query}” (higher score is better)`);
  } catch (err) { show(err.message); }
}

function renderRows(rows, note) {
  $("result-note").textContent = note;
  const body = $("results").querySelector("tbody");
  body.replaceChildren();
  for (const row of rows) {
    const tr = el("tr");
    const score = el("td", row.score === undefined ? "" : row.score.toFixed(3), "score");
    if (row.explain) score.append(el("div", explainText(row.explain), "explain"));
    const text = el("td");
    const open = el("button", row.item.text, "link memory");
    open.addEventListener("click", () => openItem(row.item.id));
    text.append(open);
    tr.append(score, text, el("td", row.item.kind), el("td", row.item.source), el("td", day(row.item.event_at)));
    body.append(tr);
  }
}

function explainText(parts) {
  return Object.entries(parts).map(([name, value]) => `${name} ${Number(value).toFixed(3)}`).join(" · ");
}

async function openItem(id) {
  try {
    const data = await api("GET", "/v1/memories/" + encodeURIComponent(id));
    selected = data.item;
    $("detail").hidden = false; $("detail-confirm").hidden = true; $("detail-forget").hidden = false;
    $("detail-text").textContent = data.item.text;
    const fields = $("detail-fields");
    fields.replaceChildren();
    for (const name of ["id", "subject", "kind", "source", "agent", "created_at", "event_at", "valid_from",
                        "valid_to", "superseded_by", "access_count", "last_accessed", "confidence", "importance"]) {
      const value = data.item[name];
      if (value === null || value === "" || value === undefined) continue;
      fields.append(el("dt", name.replace("_", " ")), el("dd", name.endsWith("_at") || name.startsWith("valid") ||
                    name === "last_accessed" ? day(value) : value));
    }
    const history = $("detail-history");
    history.replaceChildren();
    for (const version of data.history) {
      const current = version.id === data.item.id;
      history.append(el("li", `${day(version.valid_from)}  ${version.text}${current ? "  (current)" : ""}`));
    }
  } catch (err) { show(err.message); }
}

async function forgetSelected() {
  try {
    const result = await api("DELETE", "/v1/memories/" + encodeURIComponent(selected.id));
    $("detail").hidden = true;
    $("forget-done").textContent = `Forgot ${result.forgotten} memory.`;
    await Promise.all([listAll(), loadSubjects()]);
  } catch (err) { show(err.message); }
}

async function previewForget(event) {
  event.preventDefault();
  const match = $("forget-match").value.trim();
  if (!subject || !match) return;
  try {
    const preview = await api("POST", "/v1/forget", {subject, match});
    const derived = preview.derived || [], kept = preview.kept || [];
    $("forget-summary").textContent = `${preview.would_forget} memories would be deleted: ${preview.memories.length} ` +
      `contain “${match}”` + (preview.passages ? `, ${preview.passages} are their passages` : "") +
      (derived.length ? `, ${derived.length} were derived from them` : "") +
      (kept.length ? `; ${kept.length} derived from them stay` : "") + ":";
    const list = $("forget-items");
    list.replaceChildren(...preview.memories.map((item) => el("li", item.text)),
      ...derived.map((r) => el("li", `${r.memory.text} (goes: ${r.why})`)),
      ...kept.map((r) => el("li", `${r.memory.text} (stays: ${r.why})`)));
    $("forget-confirm").hidden = preview.would_forget === 0;
    $("forget-preview").hidden = false; $("forget-done").textContent = "";
  } catch (err) { show(err.message); }
}

async function confirmForget() {
  const match = $("forget-match").value.trim();
  try {
    const result = await api("POST", "/v1/forget", {subject, match, confirm: true});
    $("forget-preview").hidden = true;
    $("forget-done").textContent = `Forgot ${result.forgotten} memories containing “${match}”.`;
    $("detail").hidden = true;
    await Promise.all([listAll(), loadSubjects()]);
  } catch (err) { show(err.message); }
}

document.addEventListener("DOMContentLoaded", () => {
  $("login-form").addEventListener("submit", signIn);
  $("sign-out").addEventListener("click", () => signOut());
  $("subject-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("subject-input").value.trim();
    if (name) openSubject(name);
  });
  $("search-form").addEventListener("submit", search);
  $("show-all").addEventListener("click", listAll);
  $("forget-form").addEventListener("submit", previewForget);
  $("forget-confirm").addEventListener("click", confirmForget);
  $("forget-cancel").addEventListener("click", () => { $("forget-preview").hidden = true; });
  $("detail-forget").addEventListener("click", () => {
    $("detail-forget").hidden = true; $("detail-confirm").hidden = false;
  });
  $("detail-no").addEventListener("click", () => {
    $("detail-forget").hidden = false; $("detail-confirm").hidden = true;
  });
  $("detail-yes").addEventListener("click", forgetSelected);
  if (sessionStorage.getItem(KEY)) signIn();
  document.body.dataset.ready = "true";  // handlers are attached (tests wait for this)
});
