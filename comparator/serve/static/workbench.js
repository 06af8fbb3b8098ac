/* rulesdiff workbench: a form and the YAML of one scenario kept in step through the
   server (which checks, writes and runs it), the result of every era, explore with
   progress and cancel, share by URL. Every name the user writes is put on the page as
   text (textContent), never as markup; the result's HTML is the server's, escaped there.
   Its words are the page's (the JSON of #words: each English message said in the page's
   language, comparator/serve/words.py), said through t(); each request asks the server
   for the page's language (Accept-Language), in which it says its errors and results. */
"use strict";

const $ = (id) => document.getElementById(id);
const LANG = document.documentElement.lang || "en";
const WORDS = (() => { try { return JSON.parse($("words").textContent); } catch (e) { return {}; } })();

/* A message of words.py in the page's language, its {placeholders} filled: a number
   written as the page's language writes it. */
function t(message, values = {}) {
  const said = Object.prototype.hasOwnProperty.call(WORDS, message) ? WORDS[message] : message;
  return said.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in values)) return whole;
    const v = values[name];
    return typeof v === "number" ? v.toLocaleString(LANG) : String(v);
  });
}
const state = {
  doc: null, name: "scenario.yaml", game: "mtg", vocab: null, eras: [],
  seq: 0, era: null, every: false, job: null, lastText: "",
};

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

async function api(method, path, body) {
  const init = { method, headers: { "Accept-Language": LANG } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  const answered = () => t("the server answered {status}", { status: String(response.status) });
  try { data = await response.json(); } catch (e) { data = { error: answered() }; }
  if (!response.ok) {
    const err = new Error(data && data.error ? data.error : answered());
    err.data = data;
    err.status = response.status;
    throw err;
  }
  return data;
}

function say(text) { $("status").textContent = text; }

/* A line as a sentence begins (its first letter a capital, where its language has them). */
function sentence(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }

/* ---- opening ---------------------------------------------------------------------- */

async function fillOpenList() {
  const list = await api("GET", "/api/scenarios");
  const select = $("open-select");
  select.querySelectorAll("optgroup").forEach((g) => g.remove());
  const groups = [["shipped", t("Shipped scenarios")], ["folder", t("Files of the served folder")],
                  ["stored", t("Stored in the database")]];
  for (const [kind, label] of groups) {
    if (!list[kind] || !list[kind].length) continue;
    const group = el("optgroup", { label });
    for (const item of list[kind]) {
      group.append(el("option", { value: `${kind}:${item.name}`,
                                  text: kind === "shipped" ? `${item.name} — ${item.title}` : item.title === item.name ? item.name : `${item.name} — ${item.title}` }));
    }
    select.append(group);
  }
}

async function openSource(kind, name) {
  say(t("Opening…"));
  try {
    const got = await api("GET", `/api/open?source=${encodeURIComponent(kind)}&name=${encodeURIComponent(name || "")}`);
    state.name = got.name;
    const option = [...$("open-select").options].find((o) => o.value === `${kind}:${name || ""}`);
    if (option) $("open-select").value = option.value;
    if ($("save-name")) $("save-name").value = got.name.replace(/\.ya?ml$/, "");
    $("yaml").value = got.yaml;
    state.lastText = got.yaml;
    state.opened = { source: `${kind}:${name || ""}`, text: got.yaml };
    await refresh({ yaml: got.yaml }, "yaml", true);
  } catch (err) {
    say(t("Could not open it: {why}", { why: err.message }));
  }
}

/* ---- the round trip: check, write, run ---------------------------------------------- */

/* An edit waits for a pause in the typing (its timer), then goes to the server. While one
   editor's edit is on its way, the other is read-only: the answer rewrites it, and an edit
   made there meanwhile would be lost. */
const pending = { form: null, yaml: null };

function hold(from) {
  if (from === "yaml") { $("form").inert = true; $("form").setAttribute("aria-busy", "true"); }
  else { $("yaml").readOnly = true; }
}

function release() {
  if (pending.form || pending.yaml) return;
  $("form").inert = false;
  $("form").removeAttribute("aria-busy");
  $("yaml").readOnly = false;
}

function later(from, fn, ms) {
  hold(from);
  clearTimeout(pending[from]);
  pending[from] = setTimeout(() => { pending[from] = null; fn(); }, ms);
}

/* Every edit sent and answered: what Download, Share and Save need before they read. */
async function settle() {
  for (const from of ["form", "yaml"]) {
    if (!pending[from]) continue;
    clearTimeout(pending[from]);
    pending[from] = null;
    await refresh(from === "form" ? { scenario: state.doc } : { yaml: $("yaml").value }, from);
  }
  if (state.inflight) await state.inflight;
}

function refresh(payload, from, opening = false) {
  state.inflight = answer(payload, from, opening).finally(release);
  return state.inflight;
}

async function answer(payload, from, opening) {
  const seq = ++state.seq;
  if (!opening && location.hash.startsWith("#s=")) {
    history.replaceState(null, "", location.pathname); /* the shared link is of the board before this edit */
  }
  payload.name = state.name;
  let got;
  try {
    got = await api("POST", "/api/view", payload);
  } catch (err) {
    if (seq !== state.seq) return;
    showProblems(err.data && err.data.problems ? err.data.problems : [{ field: "", line: null, message: err.message }], []);
    say(err.message);
    return;
  }
  if (seq !== state.seq) return; /* a later edit is on its way: this answer is old */
  if (got.yaml !== undefined && from === "form") {
    $("yaml").value = got.yaml;
    state.lastText = got.yaml;
  }
  /* A form's edit keeps the form's own document (its fields are bound to it); a text's
     edit or an opening brings a new one. */
  if (from !== "form" || opening) state.doc = got.scenario || null;
  state.game = got.game || "mtg";
  state.gameTitle = got.game_title || state.game;
  if (from !== "form" || opening) await renderForm();
  showProblems(got.problems, got.warnings);
  $("result-stale").hidden = got.ok || !$("result").querySelector("[role=tab], #divergences");
  $("result").classList.toggle("stale", !got.ok);
  const pruned = state.pruned && from === "form" ? t("Dropped what named what is no longer there: {list}.", { list: state.pruned.join(t("; ")) }) : "";
  const also = (said) => (pruned ? t("{said} {more}", { said, more: pruned }) : said);
  state.pruned = null;
  if (got.ok) {
    showResult(got.html);
    const verdict = got.diff.diverges ? t("the eras diverge") : t("every era that runs it ends the same way");
    const n = got.warnings.length;
    say(also(t(!n ? "Valid: {verdict}." : n === 1 ? "Valid: {verdict} ({n} warning)." : "Valid: {verdict} ({n} warnings).", { verdict, n })));
  } else {
    const first = got.problems[0];
    const n = got.problems.length;
    const one = n === 1;
    say(also(t(first.field ? (one ? "{n} problem: {field}: {message}" : "{n} problems: {field}: {message}")
                           : (one ? "{n} problem: {message}" : "{n} problems: {message}"),
               { n, field: first.field, message: saidOf(first) })));
  }
}

function formChanged() {
  later("form", () => {
    const dropped = prune(state.doc);
    if (dropped.length) state.pruned = dropped;
    refresh({ scenario: state.doc }, "form");
  }, 250);
}

/* ---- problems beside their fields ----------------------------------------------------- */

/* A problem's message in the page's language ("said"; "message" is validate's English). */
function saidOf(p) { return p.said || p.message; }

function showProblems(problems, warnings) {
  document.querySelectorAll(".field-error").forEach((e) => e.remove());
  document.querySelectorAll("[aria-invalid]").forEach((e) => {
    e.removeAttribute("aria-invalid");
    const was = e.getAttribute("data-describedby-was");
    if (was !== null) { if (was) e.setAttribute("aria-describedby", was); else e.removeAttribute("aria-describedby"); }
  });
  const list = $("yaml-problems");
  list.replaceChildren();
  const unplaced = [];
  const all = [...problems.map((p) => [p, "problem"]), ...warnings.map((p) => [p, "warning"])];
  all.forEach(([p, kind], i) => {
    const message = kind === "warning" ? t("Warning: {message}", { message: saidOf(p) }) : saidOf(p);
    const said = p.line ? t(p.field ? "line {line}: {field}: {message}" : "line {line}: {message}", { line: String(p.line), field: p.field, message })
                        : p.field ? t("{field}: {message}", { field: p.field, message }) : message;
    const item = el("li", { class: kind },
      el("button", { type: "button", class: "linkish", text: said, onclick: () => goToLine(p.line) }));
    list.append(item);
    const input = fieldFor(p.field);
    if (input) {
      const id = `err-${i}`;
      const note = el("p", { class: `field-error ${kind}`, id, text: message });
      const wrap = input.closest(".wb-field") || input.parentElement;
      wrap.append(note);
      if (kind === "problem") input.setAttribute("aria-invalid", "true");
      if (!input.hasAttribute("data-describedby-was")) input.setAttribute("data-describedby-was", input.getAttribute("aria-describedby") || "");
      input.setAttribute("aria-describedby", `${input.getAttribute("data-describedby-was")} ${id}`.trim());
    } else {
      unplaced.push([p, kind]);
    }
  });
  const top = $("form-problems");
  if (top) {
    top.replaceChildren();
    for (const [p, kind] of unplaced) {
      const message = kind === "warning" ? t("Warning: {message}", { message: saidOf(p) }) : saidOf(p);
      top.append(el("li", { class: `field-error ${kind}`, text: p.field ? t("{field}: {message}", { field: p.field, message }) : message }));
    }
  }
}

/* The form's input for a problem's field: the field itself, or the nearest that holds it
   ("permanents[0].keywords[1]" -> "permanents[0].keywords"). */
function fieldFor(path) {
  if (!path) return null;
  let p = path;
  while (p) {
    const found = document.querySelector(`#form [data-field="${CSS.escape(p)}"]`);
    if (found) return found;
    const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
    if (cut <= 0) break;
    p = p.slice(0, cut);
  }
  return null;
}

function goToLine(line) {
  if (!line) return;
  const area = $("yaml");
  const lines = area.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  area.focus();
  area.setSelectionRange(at, at + (lines[line - 1] || "").length);
  /* Chromium does not scroll a textarea to a selection made from a script. */
  const height = parseFloat(getComputedStyle(area).lineHeight) || 20;
  area.scrollTop = Math.max(0, (line - 4) * height);
}

/* ---- the result ------------------------------------------------------------------------ */

function showResult(html) {
  const box = $("result");
  box.innerHTML = html; /* the server's HTML: every name in it escaped by its templates */
  const tabs = [...box.querySelectorAll('[role="tab"]')];
  const slider = $("era-slider");
  if (!tabs.length) return;
  const choose = (i, focus) => {
    tabs.forEach((t, j) => {
      const on = i === j;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on && !state.every;
    });
    state.era = tabs[i].dataset.era;
    if (state.every) {
      tabs.forEach((t, j) => $(t.getAttribute("aria-controls")).classList.toggle("chosen", i === j));
      if (!focus) $(tabs[i].getAttribute("aria-controls")).scrollIntoView({ block: "nearest" });
    }
    slider.value = String(i);
    slider.setAttribute("aria-valuetext", tabs[i].dataset.name);
    $("era-shown").textContent = tabs[i].dataset.era;
    if (focus) tabs[i].focus();
  };
  tabs.forEach((t, i) => {
    t.addEventListener("click", () => choose(i, false));
    t.addEventListener("keydown", (e) => {
      const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -tabs.length, End: tabs.length };
      if (!(e.key in moves)) return;
      e.preventDefault();
      const n = Math.min(tabs.length - 1, Math.max(0, i + moves[e.key]));
      choose(n, true);
    });
  });
  slider.addEventListener("input", () => choose(Number(slider.value), false));
  const every = $("every-era");
  const spread = () => {
    box.classList.toggle("every-era", every.checked);
    if (every.checked) tabs.forEach((t) => { $(t.getAttribute("aria-controls")).hidden = false; });
    else choose(Math.max(0, tabs.findIndex((t) => t.dataset.era === state.era)), false);
  };
  every.checked = state.every;
  every.addEventListener("change", () => { state.every = every.checked; spread(); });
  const keep = tabs.findIndex((t) => t.dataset.era === state.era);
  choose(keep >= 0 ? keep : 0, false);
  if (state.every) spread();
}

/* ---- the form (Magic's scenarios) --------------------------------------------------- */

async function vocabulary() {
  if (state.vocab && state.vocab.game === state.game) return state.vocab;
  state.vocab = await api("GET", `/api/vocabulary?game=${encodeURIComponent(state.game)}`);
  return state.vocab;
}

let uid = 0;
/* A field's id comes from its place in the scenario, so that it is the same after the form
   is drawn again (the focus stays where it was). */
function fid(path) { return `f-${path.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`; }

function field(label, input, path, hint) {
  const id = input.id || (path ? fid(path) : `f-${++uid}`);
  input.id = id;
  if (path) input.setAttribute("data-field", path);
  const parts = [el("label", { for: id, text: label }), input];
  if (hint) {
    const hid = `${id}-hint`;
    parts.push(el("span", { class: "field-hint", id: hid, text: hint }));
    input.setAttribute("aria-describedby", hid);
  }
  return el("div", { class: "wb-field" }, ...parts);
}

function textInput(value, onchange, attrs = {}) {
  return el("input", { type: "text", value: value ?? "", autocomplete: "off", spellcheck: "false", ...attrs,
                       oninput: (e) => onchange(e.target.value) });
}

function numberInput(value, onchange, placeholder) {
  return el("input", { type: "text", inputmode: "numeric", value: value ?? "", autocomplete: "off", size: 4,
                       placeholder: placeholder ?? null, oninput: (e) => onchange(e.target.value) });
}

/* A number as written: "3" is 3, "" is absent, anything else is kept as text for the
   server to say what is wrong with it. */
function asNumber(text) {
  const t = text.trim();
  if (t === "") return undefined;
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

/* A value of the format as an option shows it: with its words in the page's language
   where the rules have some ("ブロック・クリーチャー指定ステップ (declare-blockers)"). */
function labelled(value) {
  const labels = (state.vocab && state.vocab.form && state.vocab.form.labels) || {};
  const label = labels[value];
  return label && label !== value ? t("{label} ({value})", { label, value }) : value;
}

/* The format's values as options, each with its words. */
function named(values) { return values.map((v) => [v, labelled(v)]); }

function choice(value, options, onchange, none) {
  const select = el("select", { onchange: (e) => onchange(e.target.value === "" ? undefined : e.target.value) });
  if (none !== undefined) select.append(el("option", { value: "", text: none }));
  let found = false;
  for (const o of options) {
    const [v, label] = Array.isArray(o) ? o : [o, o];
    const opt = el("option", { value: v, text: label });
    if (String(value) === String(v)) { opt.selected = true; found = true; }
    select.append(opt);
  }
  if (value !== undefined && value !== null && value !== "" && !found) {
    select.append(el("option", { value: String(value), text: t("{value} (as written)", { value: String(value) }), selected: true }));
  }
  return select;
}

function setOrDrop(obj, key, value) {
  if (value === undefined || value === "" || (Array.isArray(value) && !value.length)) delete obj[key];
  else obj[key] = value;
}

function keywordsText(list) {
  return (list || []).map((k) => (typeof k === "object" && k !== null) ? Object.entries(k).map(([n, v]) => `${n} ${v}`).join("") : String(k)).join(", ");
}

function keywordsOf(text) {
  return text.split(",").map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = s.match(/^([a-z-]+)\s+(.+)$/);
    if (!m) return s;
    const value = /^\d+$/.test(m[2]) ? Number(m[2]) : m[2];
    return { [m[1]]: value };
  });
}

function addButton(label, onclick, id) { return el("button", { type: "button", class: "add", text: label, onclick, id }); }
function removeButton(label, onclick) { return el("button", { type: "button", class: "remove", text: t("Remove"), "aria-label": label, onclick }); }

async function renderForm() {
  const box = $("form");
  const doc = state.doc;
  if (!doc || typeof doc !== "object") {
    box.replaceChildren(el("p", { text: t("The YAML is not a scenario yet: the form comes back once it reads as one.") }),
                        el("ul", { id: "form-problems", class: "problems" }));
    return;
  }
  if (state.game !== "mtg") {
    box.replaceChildren(el("p", { text: t("The form edits Magic scenarios; this one is of {game}: edit its YAML.", { game: state.gameTitle || state.game }) }),
                        el("ul", { id: "form-problems", class: "problems" }));
    return;
  }
  const vocab = (await vocabulary()).form;
  const focused = state.focus || (document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null);
  state.focus = null;
  uid = 0;
  const parts = [el("ul", { id: "form-problems", class: "problems", "aria-label": t("Problems not tied to one field") })];
  parts.push(field(t("Title"), textInput(doc.title, (v) => { setOrDrop(doc, "title", v); formChanged(); }), "title"));

  /* players */
  doc.players = Array.isArray(doc.players) ? doc.players : [];
  const names = doc.players.map((p) => (p && p.name) || "").filter(Boolean);
  const players = el("fieldset", { class: "group" }, el("legend", { text: t("Players") }));
  doc.players.forEach((p, i) => {
    if (!p || typeof p !== "object") return;
    players.append(el("div", { class: "row" },
      field(t("Name"), textInput(p.name, (v) => { p.name = v; formChanged(); }, { onchange: () => renderFormSoon() }), `players[${i}].name`),
      field(t("Life"), numberInput(p.life, (v) => { setOrDrop(p, "life", asNumber(v)); formChanged(); }), `players[${i}].life`),
      field(t("Poison"), numberInput(p.poison, (v) => { setOrDrop(p, "poison", asNumber(v)); formChanged(); }), `players[${i}].poison`),
      removeButton(t("Remove player {name}", { name: p.name || i + 1 }), () => { doc.players.splice(i, 1); renderFormSoon("add-player"); formChanged(); })));
  });
  players.append(addButton(t("Add a player"), () => {
    let n = doc.players.length; let name;
    do { name = String.fromCharCode(65 + (n++ % 26)) + (n > 26 ? n : ""); } while (names.includes(name));
    doc.players.push({ name, life: 20 });
    renderFormSoon(fid(`players[${doc.players.length - 1}].name`)); formChanged();
  }, "add-player"));
  players.append(field(t("Active player (the attacker)"), choice(doc.active, names, (v) => { setOrDrop(doc, "active", v); formChanged(); renderFormSoon(); }), "active"));
  parts.push(players);

  /* permanents */
  doc.permanents = Array.isArray(doc.permanents) ? doc.permanents : [];
  const ids = doc.permanents.map((p) => (p && p.id) || "").filter(Boolean);
  const perms = el("fieldset", { class: "group" }, el("legend", { text: t("Permanents") }));
  const cards = el("datalist", { id: "card-names" }, ...vocab.cards.map((c) => el("option", { value: c })));
  perms.append(cards);
  doc.permanents.forEach((p, i) => {
    if (!p || typeof p !== "object") return;
    const at = `permanents[${i}]`;
    const stats = (p.card && vocab.card_stats[p.card]) || {};
    const box2 = el("fieldset", { class: "permanent" }, el("legend", { text: p.id || t("permanent {n}", { n: i + 1 }) }));
    box2.append(el("div", { class: "row" },
      field(t("Id"), textInput(p.id, (v) => { p.id = v; formChanged(); }, { onchange: () => renderFormSoon() }), `${at}.id`),
      field(t("Controller"), choice(p.controller, names, (v) => { setOrDrop(p, "controller", v); formChanged(); renderFormSoon(); }, "—"), `${at}.controller`),
      field(t("Card"), textInput(p.card, (v) => {
        setOrDrop(p, "card", v);
        /* A permanent just added has the form's 2/2: a card's own numbers replace them. */
        if (fresh.has(p) && vocab.card_stats[v]) { delete p.power; delete p.toughness; fresh.delete(p); renderFormSoon(); }
        formChanged();
      }, { list: "card-names" }), `${at}.card`, t("a card of the library, or none")),
      field(t("Power"), numberInput(p.power, (v) => { setOrDrop(p, "power", asNumber(v)); fresh.delete(p); formChanged(); }, stats.power), `${at}.power`),
      field(t("Toughness"), numberInput(p.toughness, (v) => { setOrDrop(p, "toughness", asNumber(v)); fresh.delete(p); formChanged(); }, stats.toughness), `${at}.toughness`)));
    const counters = (p.counters && typeof p.counters === "object") ? p.counters : {};
    box2.append(el("div", { class: "row" },
      field(t("Keywords"), textInput(keywordsText(p.keywords), (v) => { setOrDrop(p, "keywords", keywordsOf(v)); formChanged(); }, { size: 28 }),
            `${at}.keywords`, t("comma-separated: flying, first-strike, rampage 2, protection black")),
      field(t("+1/+1 counters"), numberInput(counters["+1/+1"], (v) => { const c = { ...(p.counters || {}) }; setOrDrop(c, "+1/+1", asNumber(v)); setOrDrop(p, "counters", Object.keys(c).length ? c : undefined); formChanged(); }), `${at}.counters`),
      field(t("−1/−1 counters"), numberInput(counters["-1/-1"], (v) => { const c = { ...(p.counters || {}) }; setOrDrop(c, "-1/-1", asNumber(v)); setOrDrop(p, "counters", Object.keys(c).length ? c : undefined); formChanged(); }), `${at}.counters.-1/-1`),
      field(t("Damage"), numberInput(p.damage, (v) => { setOrDrop(p, "damage", asNumber(v)); formChanged(); }), `${at}.damage`)));
    p.abilities = Array.isArray(p.abilities) ? p.abilities : [];
    if (!p.abilities.length) delete p.abilities;
    (p.abilities || []).forEach((a, j) => {
      if (!a || typeof a !== "object") return;
      const aat = `${at}.abilities[${j}]`;
      const kind = a.activated !== undefined ? "activated" : "trigger";
      box2.append(el("div", { class: "row ability" },
        field(t("Ability"), choice(kind === "trigger" ? `trigger:${a.trigger ?? ""}` : `activated:${a.activated ?? ""}`,
              [...vocab.triggers.map((x) => [`trigger:${x}`, t("when: {trigger}", { trigger: labelled(x) })]),
               ...vocab.activated.map((x) => [`activated:${x}`, t("cost: {cost}", { cost: labelled(x) })])],
              (v) => { const [k, name] = (v || "").split(":"); delete a.trigger; delete a.activated; if (k) a[k] = name; formChanged(); }), aat),
        field(t("Effect"), choice(a.effect, named(Object.keys(vocab.effects)), (v) => { setOrDrop(a, "effect", v); formChanged(); }), `${aat}.effect`),
        field(t("Target"), choice(a.target, named(vocab.ability_targets), (v) => { setOrDrop(a, "target", v); formChanged(); }, "—"), `${aat}.target`),
        field(t("Power"), numberInput(a.power, (v) => { setOrDrop(a, "power", asNumber(v)); formChanged(); }), `${aat}.power`),
        field(t("Toughness"), numberInput(a.toughness, (v) => { setOrDrop(a, "toughness", asNumber(v)); formChanged(); }), `${aat}.toughness`),
        field(t("Amount"), numberInput(a.amount, (v) => { setOrDrop(a, "amount", asNumber(v)); formChanged(); }), `${aat}.amount`),
        removeButton(t("Remove ability {n} of {id}", { n: j + 1, id: p.id || i + 1 }), () => { p.abilities.splice(j, 1); if (!p.abilities.length) delete p.abilities; renderFormSoon(`add-ability-${i}`); formChanged(); })));
    });
    box2.append(el("div", { class: "buttons" },
      addButton(p.id ? t("Add an ability to {id}", { id: p.id }) : t("Add an ability"), () => { (p.abilities = p.abilities || []).push({ trigger: vocab.triggers[0], effect: "pump", target: "self", power: 1, toughness: 1 }); renderFormSoon(fid(`permanents[${i}].abilities[${p.abilities.length - 1}]`)); formChanged(); }, `add-ability-${i}`),
      removeButton(p.id ? t("Remove {id}", { id: p.id }) : t("Remove permanent {n}", { n: i + 1 }), () => { doc.permanents.splice(i, 1); renderFormSoon("add-permanent"); formChanged(); })));
    perms.append(box2);
  });
  perms.append(addButton(t("Add a permanent"), () => {
    let n = doc.permanents.length + 1; while (ids.includes(`creature-${n}`)) n++;
    const made = { id: `creature-${n}`, controller: names[0] || "A", power: 2, toughness: 2 };
    fresh.add(made);
    doc.permanents.push(made);
    renderFormSoon(fid(`permanents[${doc.permanents.length - 1}].id`)); formChanged();
  }, "add-permanent"));
  parts.push(perms);

  /* combat: attacks and blocks, chosen from lists */
  doc.combat = (doc.combat && typeof doc.combat === "object") ? doc.combat : {};
  const combat = doc.combat;
  const attacks = (combat.attacks && typeof combat.attacks === "object") ? combat.attacks : {};
  const blocks = (combat.blocks && typeof combat.blocks === "object") ? combat.blocks : {};
  const fights = el("fieldset", { class: "group" }, el("legend", { text: t("Attacks and blocks") }));
  const mine = doc.permanents.filter((p) => p && p.id && p.controller === doc.active);
  const theirs = doc.permanents.filter((p) => p && p.id && p.controller !== doc.active);
  const defenders = [...names.filter((n) => n !== doc.active), ...theirs.map((p) => p.id)];
  const update = (key, obj) => { combat[key] = obj; if (!Object.keys(obj).length) delete combat[key]; if (!Object.keys(combat).length) delete doc.combat; };
  const attackRow = el("div", { class: "row" });
  for (const p of mine) {
    attackRow.append(field(t("{id} attacks", { id: p.id }), choice(attacks[p.id], defenders, (v) => { const a = { ...attacks }; setOrDrop(a, p.id, v); update("attacks", a); doc.combat = combat; formChanged(); renderFormSoon(); }, t("does not attack")), `combat.attacks.${p.id}`));
  }
  if (!mine.length) attackRow.append(el("p", { class: "field-hint", text: t("The active player controls no permanent to attack with.") }));
  fights.append(attackRow);
  const attackers = Object.keys(attacks);
  const blockRow = el("div", { class: "row" });
  for (const p of theirs) {
    const value = blocks[p.id];
    if (Array.isArray(value)) {
      blockRow.append(field(t("{id} blocks", { id: p.id }), textInput(value.join(", "), (v) => { const b = { ...blocks }; setOrDrop(b, p.id, v.split(",").map((s) => s.trim()).filter(Boolean)); update("blocks", b); doc.combat = combat; formChanged(); }), `combat.blocks.${p.id}`, t("several attackers, comma-separated")));
      continue;
    }
    blockRow.append(field(t("{id} blocks", { id: p.id }), choice(value, attackers, (v) => { const b = { ...blocks }; setOrDrop(b, p.id, v); update("blocks", b); doc.combat = combat; formChanged(); }, t("does not block")), `combat.blocks.${p.id}`));
  }
  if (!theirs.length) blockRow.append(el("p", { class: "field-hint", text: t("No other player controls a permanent to block with.") }));
  fights.append(blockRow);
  if (combat.assign || combat.order || combat.bands) {
    fights.append(el("p", { class: "field-hint", "data-field": "combat.assign", text: t("Damage assignment, orders and bands are edited in the YAML.") }));
  }
  parts.push(fights);

  /* actions */
  doc.actions = Array.isArray(doc.actions) ? doc.actions : [];
  const acts = el("fieldset", { class: "group" }, el("legend", { text: t("Actions (spells and abilities during combat)") }));
  const targets = [...ids, ...names];
  doc.actions.forEach((a, i) => {
    if (!a || typeof a !== "object") return;
    const at = `actions[${i}]`;
    const windowValue = Array.isArray(a.at) ? a.at.join(", ") : a.at;
    acts.append(el("fieldset", { class: "action" }, el("legend", { text: a.card ? t("Action {n}: {card}", { n: i + 1, card: a.card }) : t("Action {n}", { n: i + 1 }) }),
      el("div", { class: "row" },
        field(t("Window"), choice(windowValue, named(vocab.windows), (v) => { setOrDrop(a, "at", v); formChanged(); }), `${at}.at`),
        field(t("By"), choice(a.by, names, (v) => { setOrDrop(a, "by", v); formChanged(); }, "—"), `${at}.by`),
        field(t("Effect"), choice(a.effect, named(Object.keys(vocab.effects)), (v) => { setOrDrop(a, "effect", v); keepFieldsOf(a, vocab); formChanged(); renderFormSoon(); }), `${at}.effect`),
        field(t("Target"), choice(Array.isArray(a.target) ? a.target.join(", ") : a.target, targets, (v) => { setOrDrop(a, "target", v); formChanged(); }, "—"), `${at}.target`)),
      el("div", { class: "row" },
        field(t("Card"), textInput(a.card, (v) => { setOrDrop(a, "card", v); formChanged(); }, { list: "action-cards" }), `${at}.card`, t("a label for the log")),
        ...effectFields(a, at, vocab, ids),
        field(t("If the window is missing"), choice(a["if-missing"], vocab.if_missing, (v) => { setOrDrop(a, "if-missing", v); formChanged(); }, t("skip (default)")), `${at}.if-missing`),
        removeButton(t("Remove action {n}", { n: i + 1 }), () => { doc.actions.splice(i, 1); if (!doc.actions.length) delete doc.actions; renderFormSoon("add-action"); formChanged(); }))));
  });
  if (!doc.actions.length) delete doc.actions;
  acts.append(el("datalist", { id: "action-cards" }, ...vocab.action_cards.map((c) => el("option", { value: c }))));
  acts.append(el("datalist", { id: "keyword-names" }, ...vocab.keywords.map((k) => el("option", { value: k, label: labelled(k) !== k ? labelled(k) : null }))));
  acts.append(addButton(t("Add an action"), () => {
    (doc.actions = doc.actions || []).push({ at: "declare-blockers", by: names.find((n) => n !== doc.active) || names[0], effect: "pump", target: ids[0], power: 3, toughness: 3 });
    renderFormSoon(fid(`actions[${doc.actions.length - 1}].at`)); formChanged();
  }, "add-action"));
  parts.push(acts);
  box.replaceChildren(...parts);
  if (focused && $(focused)) $(focused).focus();
}

/* The numbers an effect takes ("pump": power and toughness; "damage": amount; "grant": a
   keyword; "activate": the source whose ability it is). */
const EFFECT_NUMBERS = ["power", "toughness", "amount", "keyword", "source"];

function usedBy(effect, vocab) {
  const needed = (vocab.effects[effect] || []);
  const used = new Set(needed.filter((f) => EFFECT_NUMBERS.includes(f)));
  if (effect === "prevent" || effect === "counters") used.add("amount");
  return used;
}

function keepFieldsOf(a, vocab) {
  const used = usedBy(a.effect, vocab);
  for (const f of EFFECT_NUMBERS) if (!used.has(f)) delete a[f];
}

function effectFields(a, at, vocab, ids) {
  const used = usedBy(a.effect, vocab);
  const out = [];
  for (const f of EFFECT_NUMBERS) {
    if (!used.has(f) && a[f] === undefined) continue;
    const label = { power: t("Power"), toughness: t("Toughness"), amount: t("Amount") }[f] || f;
    if (f === "source") {
      out.push(field(t("Source"), choice(a.source, ids, (v) => { setOrDrop(a, "source", v); formChanged(); }, "—"), `${at}.source`, t("the permanent whose ability it is")));
    } else if (f === "keyword") {
      out.push(field(t("Keyword"), textInput(keywordsText(a.keyword === undefined ? [] : [a.keyword]), (v) => { setOrDrop(a, "keyword", keywordsOf(v)[0]); formChanged(); }, { list: "keyword-names", size: 14 }), `${at}.keyword`));
    } else {
      out.push(field(label, numberInput(a[f], (v) => { setOrDrop(a, f, asNumber(v)); formChanged(); }), `${at}.${f}`));
    }
  }
  return out;
}

/* After an edit in the form (a permanent removed, a block or an attack changed), the entries
   of the file that name what is no longer there, or a fight that changed: an order or a
   damage assignment of an attacker whose blockers changed, the expectations of a
   permanent removed. The form can't show them, so it drops them, and says so. */
function prune(doc) {
  const said = [];
  if (!doc || typeof doc !== "object") return said;
  const isMap = (v) => v && typeof v === "object" && !Array.isArray(v);
  const ids = new Set((Array.isArray(doc.permanents) ? doc.permanents : []).filter((p) => p && p.id).map((p) => p.id));
  const players = new Set((Array.isArray(doc.players) ? doc.players : []).filter((p) => p && p.name).map((p) => p.name));
  const combat = doc.combat;
  if (isMap(combat)) {
    const drop = (key, k, why) => { delete combat[key][k]; said.push(t("{path} ({why})", { path: `combat.${key}.${k}`, why })); };
    for (const key of ["attacks", "blocks", "order", "assign"]) {
      if (!isMap(combat[key])) continue;
      for (const k of Object.keys(combat[key])) if (!ids.has(k)) drop(key, k, t("no such permanent"));
    }
    const attacks = isMap(combat.attacks) ? combat.attacks : {};
    const blockersOf = {};
    if (isMap(combat.blocks)) {
      for (const [b, a] of Object.entries(combat.blocks)) {
        const list = Array.isArray(a) ? a : [a];
        if (list.some((x) => !(x in attacks))) { drop("blocks", b, t("the creature it blocks does not attack")); continue; }
        for (const x of list) (blockersOf[x] = blockersOf[x] || []).push(b);
      }
    }
    if (isMap(combat.order)) {
      for (const [a, list] of Object.entries(combat.order)) {
        const now = (blockersOf[a] || []).slice().sort().join(",");
        if (!Array.isArray(list) || list.slice().sort().join(",") !== now) drop("order", a, t("its blockers changed"));
      }
    }
    if (isMap(combat.assign)) {
      for (const [a, v] of Object.entries(combat.assign)) {
        if (!(a in attacks)) { drop("assign", a, t("it does not attack")); continue; }
        const allowed = new Set([...(blockersOf[a] || []), attacks[a], ...players]);
        const maps = isMap(v) ? (("first" in v || "second" in v) ? [v.first, v.second].filter(isMap) : [v]) : [];
        if (maps.some((m) => Object.keys(m).some((k) => !allowed.has(k)))) drop("assign", a, t("its blockers changed"));
      }
    }
    if (Array.isArray(combat.bands)) {
      const before = JSON.stringify(combat.bands);
      combat.bands = combat.bands.map((b) => (Array.isArray(b) ? b.filter((x) => ids.has(x)) : b)).filter((b) => !Array.isArray(b) || b.length > 1);
      if (JSON.stringify(combat.bands) !== before) said.push(t("{path} ({why})", { path: "combat.bands", why: t("a member is gone") }));
      if (!combat.bands.length) delete combat.bands;
    }
    for (const key of ["attacks", "blocks", "order", "assign"]) if (isMap(combat[key]) && !Object.keys(combat[key]).length) delete combat[key];
    if (!Object.keys(combat).length) delete doc.combat;
  }
  if (isMap(doc.expect)) {
    for (const [era, e] of Object.entries(doc.expect)) {
      if (!isMap(e)) continue;
      for (const [key, known] of [["permanents", ids], ["players", players]]) {
        if (!isMap(e[key])) continue;
        for (const k of Object.keys(e[key])) {
          if (!known.has(k)) { delete e[key][k]; said.push(t("{path} ({why})", { path: `expect.${era}.${key}.${k}`, why: key === "players" ? t("no such player") : t("no such permanent") })); }
        }
      }
    }
  }
  return said;
}

const fresh = new WeakSet(); /* permanents added here whose 2/2 nobody chose */

function renderFormSoon(focus) { if (focus) state.focus = focus; setTimeout(renderForm, 0); }

/* ---- keep it: download, share, save --------------------------------------------------- */

function b64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unb64url(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

async function shareLink() {
  await settle();
  const packed = await through(new CompressionStream("deflate-raw"), new TextEncoder().encode($("yaml").value));
  const url = `${location.origin}${location.pathname}#s=${b64url(packed)}`;
  history.replaceState(null, "", url);
  state.shared = location.hash;
  $("share-url").value = url;
  let said = t("The link holds the whole scenario: it is in the address bar and above.");
  try { await navigator.clipboard.writeText(url); said = t("Copied: the link holds the whole scenario."); } catch (e) { /* not allowed here: the field has it */ }
  $("share-said").textContent = said;
}

async function fromLink(hash) {
  const packed = unb64url(hash.slice(3));
  return new TextDecoder().decode(await through(new DecompressionStream("deflate-raw"), packed));
}

async function download() {
  await settle();
  const blob = new Blob([$("yaml").value], { type: "application/yaml" });
  const a = el("a", { href: URL.createObjectURL(blob), download: state.name || "scenario.yaml" });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function save(e) {
  e.preventDefault();
  const said = $("save-said");
  said.textContent = t("Saving…");
  await settle();
  try {
    const got = await api("POST", "/api/save", { yaml: $("yaml").value, name: $("save-name").value, replace: $("save-replace").checked });
    said.textContent = t("Saved as {file} in {folder}.", { file: got.saved, folder: got.folder });
    await fillOpenList();
  } catch (err) {
    /* An invalid scenario's refusal says "not saved" itself. */
    said.textContent = err.status === 422 && err.data && err.data.problems ? sentence(err.message) : t("Not saved: {why}", { why: err.message });
  }
}

/* ---- explore, with progress and cancel --------------------------------------------- */

async function explore(e) {
  e.preventDefault();
  await settle();
  const status = $("explore-status");
  const progress = $("explore-progress");
  const limitText = $("explore-limit").value.trim();
  const limit = /^\d+$/.test(limitText) ? Number(limitText) : limitText;
  $("explore-result").replaceChildren();
  let job;
  try {
    job = await api("POST", "/api/explore", {
      yaml: $("yaml").value, name: state.name, objective: $("explore-objective").value,
      blocks: $("explore-blocks").value, fields: $("explore-fields").value, limit });
  } catch (err) {
    status.textContent = t("Not explored: {why}", { why: err.message });
    return;
  }
  state.job = job.job;
  progress.hidden = false;
  $("explore-cancel").disabled = false;
  const hadFocus = document.activeElement === $("explore-start");
  $("explore-start").disabled = true;
  if (hadFocus) $("explore-cancel").focus(); /* the disabled button would drop the focus */
  status.textContent = t("Searching…");
  const mine = () => state.job === job.job;
  const done = () => {
    const hadFocus = document.activeElement === $("explore-cancel");
    progress.hidden = true; $("explore-cancel").disabled = true; $("explore-start").disabled = false; state.job = null;
    if (hadFocus) $("explore-start").focus();
  };
  while (mine()) {
    await new Promise((r) => setTimeout(r, 250));
    if (!mine()) return; /* cancelled, or another search begun: this loop is over */
    let got;
    try { got = await api("GET", `/api/explore/${job.job}?html=1`); } catch (err) { if (mine()) { status.textContent = t("Not explored: {why}", { why: err.message }); done(); } return; }
    if (!mine()) return;
    if (got.state === "running") {
      const values = { era: got.era, lines: got.lines, seconds: got.seconds, n: got.eras ? got.eras.indexOf(got.era) + 1 : 0, count: got.eras ? got.eras.length : 0 };
      status.textContent = !got.era ? t("Searching…") : values.n > 0
        ? t("Searching under {era} (era {n} of {count}): {lines} lines played out in this era so far; {seconds} s.", values)
        : t("Searching under {era}: {lines} lines played out in this era so far; {seconds} s.", values);
      continue;
    }
    if (got.state === "done") {
      $("explore-result").innerHTML = got.html || ""; /* the server's HTML, escaped there */
      const eras = Object.keys(got.explore.eras);
      status.textContent = t(eras.length === 1 ? "Explored {n} era in {seconds} s: {verdict}." : "Explored {n} eras in {seconds} s: {verdict}.",
                             { n: eras.length, seconds: got.seconds, verdict: got.explore.diverges ? t("the eras diverge") : t("the eras agree") });
    } else if (got.state === "cancelled") {
      status.textContent = t("Cancelled: nothing was explored.");
    } else {
      status.textContent = t("Not explored: {why}", { why: got.error });
    }
    done();
    return;
  }
}

async function cancel() {
  const id = state.job;
  if (!id) return;
  state.job = null;
  try { await api("DELETE", `/api/explore/${id}`); } catch (e) { /* it ended on its own */ }
  $("explore-status").textContent = t("Cancelled: nothing was explored.");
  $("explore-progress").hidden = true;
  $("explore-start").disabled = false;
  $("explore-start").focus();
  $("explore-cancel").disabled = true;
}

/* ---- the other language ------------------------------------------------------------- */

/* The language switch takes the board along: the scenario as it was opened (?open=), or,
   once edited, the whole text in the link's fragment, as Share makes it. */
async function otherLanguage(e) {
  const link = e.currentTarget;
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  const to = new URL(link.href, location.href);
  try {
    await settle();
    const text = $("yaml").value;
    if (state.opened && state.opened.text === text) {
      to.search = `?open=${encodeURIComponent(state.opened.source).replace(/%3A/g, ":")}`;
    } else {
      const packed = await through(new CompressionStream("deflate-raw"), new TextEncoder().encode(text));
      to.hash = `s=${b64url(packed)}`;
    }
  } catch (err) { /* the page without the board */ }
  location.href = to.href;
}

/* ---- start ---------------------------------------------------------------------------- */

async function start() {
  $("yaml").addEventListener("input", () => {
    const text = $("yaml").value;
    if (text === state.lastText) return;
    state.lastText = text;
    later("yaml", () => refresh({ yaml: text }, "yaml"), 350);
  });
  $("open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const [kind, ...rest] = $("open-select").value.split(":");
    if (kind === "link") { if (location.hash.startsWith("#s=")) openLink(); return; }
    openSource(kind, rest.join(":"));
  });
  let listed = Date.now();
  $("open-select").addEventListener("focus", () => {
    if (Date.now() - listed < 5000) return;
    listed = Date.now();
    const chosen = $("open-select").value;
    fillOpenList().then(() => { $("open-select").value = chosen; }).catch(() => {});
  });
  $("download").addEventListener("click", download);
  const switcher = document.querySelector("header.site .language a");
  if (switcher) switcher.addEventListener("click", otherLanguage);
  $("share").addEventListener("click", shareLink);
  if ($("save-form")) $("save-form").addEventListener("submit", save);
  $("explore-form").addEventListener("submit", explore);
  $("explore-cancel").addEventListener("click", cancel);
  try { await fillOpenList(); } catch (err) { say(t("The list of scenarios could not be read: {why}", { why: err.message })); }
  const params = new URLSearchParams(location.search);
  if (location.hash.startsWith("#s=")) {
    if (await openLink()) return;
  } else if (params.get("open")) {
    const [kind, ...rest] = params.get("open").split(":");
    await openSource(kind, rest.join(":"));
    return;
  }
  await openSource("new", "");
}

async function openLink() {
  try {
    const text = await fromLink(location.hash);
    $("yaml").value = text;
    state.lastText = text;
    state.shared = location.hash;
    const select = $("open-select");
    let option = select.querySelector('option[value="link:"]');
    if (!option) { option = el("option", { value: "link:", text: t("A shared link (this page's address)") }); select.prepend(option); }
    select.value = "link:";
    state.name = "shared-board.yaml";
    await refresh({ yaml: text }, "yaml", true);
    if (state.doc && typeof state.doc.id === "string") {
      state.name = `${state.doc.id}.yaml`;
      if ($("save-name")) $("save-name").value = state.doc.id;
    }
    return true;
  } catch (err) {
    say(t("The link's scenario could not be read ({why}).", { why: err.message }));
    return false;
  }
}

/* Another shared link followed in this tab. */
window.addEventListener("hashchange", () => {
  if (location.hash.startsWith("#s=") && location.hash !== state.shared) openLink();
});

document.addEventListener("DOMContentLoaded", start);
