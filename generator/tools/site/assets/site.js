// The catalog page's behaviour: it renders the embedded catalog data, filters it with label
// selectors read exactly as generator/query/selector.py reads them (same grammar, same
// messages), and shows the fit verdicts computed at build time. No request leaves the page.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("catalog-data").textContent);
  const PREFIX = data.labelPrefix;

  // ---- label selectors: a port of generator/query/selector.py ----
  // Python's \s and str.strip() are str.isspace(); JavaScript's \s differs, so the class is spelled out.
  const WS = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const S = "[" + WS + "]";
  const NAME = "[^" + WS + ",!=()]";
  const TERM = new RegExp(
    S + "*(?:(?<not>!)" + S + "*(?<nkey>" + NAME + "+)" +
    "|(?<key>" + NAME + "+)" + S + "*(?:(?<op>==|!=|=)" + S + "*(?<value>[^" + WS + ",()]*)" +
    "|" + S + "+(?<set>in|notin)" + S + "*\\((?<values>[^()]*)\\))?)" + S + "*(?:,|$)", "y");
  const STRIP = new RegExp("^" + S + "+|" + S + "+$", "g");

  // A character Python's str.isprintable() refuses, as repr() writes it; null for a printable one.
  function escaped(ch) {
    if (ch === "\n") return "\\n";
    if (ch === "\r") return "\\r";
    if (ch === "\t") return "\\t";
    if (ch === " " || !/[\p{Z}\p{C}]/u.test(ch)) return null;
    const code = ch.codePointAt(0);
    const hex = code.toString(16);
    return code <= 0xff ? "\\x" + hex.padStart(2, "0")
      : code <= 0xffff ? "\\u" + hex.padStart(4, "0") : "\\U" + hex.padStart(8, "0");
  }

  // Python's repr() of a string, as the CLI's message quotes the selector.
  function pyRepr(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    let out = quote;
    for (const ch of text) {
      if (ch === quote || ch === "\\") out += "\\" + ch;
      else out += escaped(ch) ?? ch;
    }
    return out + quote;
  }

  // generator/problems.py's excerpt(): at most 60 characters, each on one line (printable()).
  function excerpt(text) {
    const chars = Array.from(text);
    const shown = (part) => part.map((ch) => escaped(ch) ?? ch).join("");
    return chars.length <= 60 ? shown(chars)
      : shown(chars.slice(0, 60)) + "... (" + (chars.length - 60) + " more characters)";
  }

  // ---- label keys and values: a port of generator/objectmeta.py, in its words ----
  const NAME_PART = /^(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
  const LABEL_VALUE = /^(?:(?:[A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
  const SUBDOMAIN = /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*$/;
  const QUALIFIED_MSG = "must consist of alphanumeric characters, '-', '_' or '.', " +
    "and must start and end with an alphanumeric character";
  const LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, " +
    "'-', '_' or '.', and must start and end with an alphanumeric character";
  const SUBDOMAIN_MSG = "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
    "and must start and end with an alphanumeric character";
  const bytes = (text) => new TextEncoder().encode(text).length;  // Go's len(), as objectmeta._size
  const tooLong = (limit) => "must be no more than " + limit + " characters";

  function subdomainErrors(value) {
    const errors = [];
    if (bytes(value) > 253) errors.push(tooLong(253));
    if (!SUBDOMAIN.test(value)) errors.push(SUBDOMAIN_MSG);
    return errors;
  }

  function qualifiedNameErrors(value) {
    const parts = value.split("/");
    if (parts.length > 2) {
      return ["a qualified name " + QUALIFIED_MSG + ", with an optional DNS subdomain prefix and '/' " +
        "(e.g. 'example.com/MyName')"];
    }
    const errors = [];
    const name = parts[parts.length - 1];
    if (parts.length === 2) {
      if (!parts[0]) errors.push("prefix part must be non-empty");
      else errors.push(...subdomainErrors(parts[0]).map((m) => "prefix part " + m));
    }
    if (!name) {
      errors.push("name part must be non-empty");
      return errors;
    }
    if (bytes(name) > 63) errors.push("name part " + tooLong(63));
    if (!NAME_PART.test(name)) errors.push("name part " + QUALIFIED_MSG);
    return errors;
  }

  function labelValueErrors(value) {
    const errors = [];
    if (bytes(value) > 63) errors.push(tooLong(63));
    if (!LABEL_VALUE.test(value)) errors.push(LABEL_VALUE_MSG);
    return errors;
  }

  function sentence(value, what, errors) {
    return errors.length ? pyRepr(value) + " is not a valid " + what + ": " + errors.join("; ") : null;
  }

  function fullKey(key) { return key.includes("/") ? key : PREFIX + key; }

  function refused(text, why) {
    return new Error("--selector: cannot read label selector " + pyRepr(excerpt(text)) + ": " + why);
  }

  // A requirement whose key is a label key and each value a label value, as kubectl demands.
  function checked(text, requirement) {
    let problem = sentence(requirement.key, "label key", qualifiedNameErrors(requirement.key));
    for (const value of [...requirement.values].sort()) {
      problem = problem || sentence(value, "label value", labelValueErrors(value));
    }
    if (problem) throw refused(text, problem);
    return requirement;
  }

  // Parse a selector into requirements, or throw an Error whose message is the CLI's.
  function parseSelector(input) {
    const text = input.replace(STRIP, "");
    const requirements = [];
    let position = 0;
    while (position < text.length) {
      TERM.lastIndex = position;
      const match = TERM.exec(text);
      if (!match || TERM.lastIndex === position) {
        throw new Error("--selector: cannot read label selector " + pyRepr(text) + " at character " +
          (position + 1) + "; expected key=value, key!=value, key, !key, key in (a,b) or key notin (a,b), " +
          "separated by commas");
      }
      position = TERM.lastIndex;
      const g = match.groups;
      let requirement;
      if (g.nkey) requirement = { key: fullKey(g.nkey), op: "!exists", values: [] };
      else if (g.op) requirement = { key: fullKey(g.key), op: g.op === "!=" ? "!=" : "=", values: [g.value] };
      else if (g.set) {
        // as apimachinery's parseValues: "()" is the set of the empty value, and so is an empty item
        const values = g.values.split(",").map((v) => v.replace(STRIP, ""));
        requirement = { key: fullKey(g.key), op: g.set, values: [...new Set(values)] };
      } else requirement = { key: fullKey(g.key), op: "exists", values: [] };
      requirements.push(checked(text, requirement));
    }
    return requirements;
  }

  function matches(requirements, labels) {
    return requirements.every((r) => {
      const has = Object.prototype.hasOwnProperty.call(labels, r.key);
      const value = has ? labels[r.key] : undefined;
      if (r.op === "exists") return has;
      if (r.op === "!exists") return !has;
      if (r.op === "=" || r.op === "in") return has && r.values.includes(value);
      return !has || !r.values.includes(value);
    });
  }

  // ---- small DOM helpers ----
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === false || value === null || value === undefined) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }
  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");
  const cpus = (n) => plural(n, "vCPU");
  // The oldest KubeVirt release whose API server accepts the object as built (citgen list shows the same).
  const since = (release) => release ? release + " or later" : "none citgen knows";

  const byName = new Map();
  for (const it of data.instancetypes) byName.set(it.name, { family: "instancetype", record: it });
  const preferenceIds = new Map();
  for (const pref of data.preferences) {
    // a preference named like an instancetype keeps its link unique
    const id = byName.has(pref.name) ? "preference:" + pref.name : pref.name;
    preferenceIds.set(pref.name, id);
    byName.set(id, { family: "preference", record: pref });
  }

  // ---- deprecations and retired names ----
  // A link to an object of the page by family and name; plain text for a name the page does not hold.
  function objectLink(family, name) {
    const id = family === "preference" ? preferenceIds.get(name) : (byName.has(name) ? name : undefined);
    return id ? el("a", { href: "#" + id, text: name }) : el("code", { text: name });
  }

  // The replacement followed to the object to use: "a → b", each name a link where the page holds it.
  function chainNodes(family, chain) {
    return chain.flatMap((name, i) => [...(i ? [" → "] : []), objectLink(family, name)]);
  }

  // " since v1.3.0 · use a → b", as far as the data says.
  function lifecycleNodes(family, lifecycle) {
    if (!lifecycle) return [];
    return [lifecycle.since ? " since " + lifecycle.since : "",
      ...(lifecycle.chain.length ? [lifecycle.renamed ? " · renamed to " : " · use ",
        ...chainNodes(family, lifecycle.chain)] : [])];
  }

  function deprecatedNote(family, record) {
    return el("p", { class: "deprecated" }, "Deprecated", lifecycleNodes(family, record.lifecycle));
  }

  // Names earlier releases shipped that the catalog no longer defines, and what to use instead.
  function renderRetired() {
    const table = document.getElementById("retired-names");
    document.getElementById("retired").hidden = !data.retired.length;
    document.getElementById("retired-link").hidden = !data.retired.length;
    table.append(el("caption", { class: "muted", text: "Names of earlier releases" }),
      el("thead", {}, el("tr", {}, ["Name", "Kind", "Retired in", "Instead"].map((text) =>
        el("th", { scope: "col", text })))),
      el("tbody", {}, data.retired.map((r) => el("tr", { "data-name": r.name },
        el("th", { scope: "row" }, el("code", { text: r.name })),
        el("td", { text: r.family }),
        el("td", { text: r.since }),
        el("td", {}, r.chain.length ? [r.renamed ? "renamed to " : "", ...chainNodes(r.family, r.chain)]
          : "nothing replaces it")))));
  }

  // ---- series cards ----
  function renderSeries() {
    const box = document.getElementById("series-cards");
    for (const s of data.series) {
      box.append(el("article", { class: "card", id: "series-" + s.name, "data-series": s.name },
        el("h3", { text: s.name.toUpperCase() + " · " + s.displayName }),
        el("p", { class: "muted" }, el("code", { text: s.class }), " · vCPU:memory " + s.ratio + " (GiB)"),
        s.deprecated ? el("p", { class: "deprecated" }, "Deprecated",
          s.deprecatedSince ? " since " + s.deprecatedSince : "",
          s.replacement ? [" · replaced by ", el("a", { href: "#series-" + s.replacement,
            text: s.replacement.toUpperCase() })] : "") : null,
        el("p", { text: s.description }),
        el("ul", { class: "badges", "aria-label": "Features" }, s.badges.map((b) => el("li", { text: b })))));
    }
  }

  // ---- the size grid ----
  function renderGrid() {
    const table = document.getElementById("size-grid");
    const seriesNames = data.series.map((s) => s.name);
    for (const it of data.instancetypes) if (!seriesNames.includes(it.series)) seriesNames.push(it.series);
    const sizes = data.sizes.filter((size) => data.instancetypes.some((it) => it.size === size));
    for (const it of data.instancetypes) if (!sizes.includes(it.size)) sizes.push(it.size);
    table.append(el("caption", { class: "muted", text: "Series by size" }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Series" }),
        sizes.map((size) => el("th", { scope: "col", text: size })))));
    const body = el("tbody");
    for (const name of seriesNames) {
      const row = el("tr", { "data-series": name }, el("th", { scope: "row", text: name.toUpperCase() }));
      for (const size of sizes) {
        const here = data.instancetypes.filter((it) => it.series === name && it.size === size);
        here.sort((a, b) => (a.variant > b.variant) - (a.variant < b.variant));
        row.append(el("td", {}, here.map((it) => el("a", {
          href: "#" + it.name, id: it.name, class: "it", "data-name": it.name,
          "aria-label": it.name + ", " + cpus(it.cpu) + ", " + it.memoryText + " memory" +
            (it.variant ? ", variant " + it.variant + " of " + size : "") + (it.deprecated ? ", deprecated" : "") +
            (it.lifecycle && it.lifecycle.current ? ", use " + it.lifecycle.current : ""),
        }, el("span", { class: it.variant ? "n v" : "n", text: it.name }),
        el("span", { class: "facts", text: cpus(it.cpu) + " · " + it.memoryText }),
        it.deprecated ? el("span", { class: "deprecated", text: "deprecated" }) : null))));
      }
      body.append(row);
    }
    table.append(body);
    table.addEventListener("keydown", gridKeys);
  }

  // Arrow keys move between the grid's visible links, row by row and column by column.
  function gridKeys(event) {
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const link = event.target.closest("a.it");
    if (!link || !moves[event.key]) return;
    const cell = link.parentElement;
    const links = [...cell.querySelectorAll("a.it:not([hidden])")];
    const [dr, dc] = moves[event.key];
    if (dr !== 0 && links.indexOf(link) + dr >= 0 && links.indexOf(link) + dr < links.length) {
      links[links.indexOf(link) + dr].focus();
      event.preventDefault();
      return;
    }
    const rows = [...cell.closest("tbody").rows];
    let r = rows.indexOf(cell.parentElement);
    let c = cell.cellIndex;
    for (;;) {
      r += dr; c += dc;
      if (r < 0 || r >= rows.length || c < 1 || c >= rows[r].cells.length) return;
      const found = [...rows[r].cells[c].querySelectorAll("a.it:not([hidden])")];
      if (found.length) {
        (dr < 0 ? found[found.length - 1] : found[0]).focus();
        event.preventDefault();
        return;
      }
    }
  }

  // ---- preferences ----
  // The OS a preference is for (libosinfo short-ids) and, when the build found libosinfo's database, what the
  // database says the OS needs at least and recommends.
  function resources(r) {
    return r ? [r.cpu ? cpus(r.cpu) : null, r.memoryText || null].filter(Boolean).join(", ") : "not said";
  }
  function osFacts(os) {
    const ids = os.shortIds.length > 3 ? os.shortIds.slice(0, 3).join(", ") + ", \u2026 (" + os.shortIds.length +
      " releases)" : os.shortIds.join(", ");
    const shown = [ids, os.line && !os.database ? "the line " + os.line : ""].filter(Boolean).join("; ");
    const facts = [el("dt", { text: "OS (libosinfo)" }), el("dd", { text: os.name ? os.name + ": " + shown : shown })];
    if (os.database) {
      facts.push(el("dt", { text: "OS minimum" }), el("dd", { text: resources(os.minimum) }),
        el("dt", { text: "OS recommends" }), el("dd", { text: resources(os.recommended) }));
    }
    return facts;
  }

  function renderPreferences() {
    const box = document.getElementById("preference-groups");
    const families = [];
    for (const p of data.preferences) if (!families.includes(p.family)) families.push(p.family);
    families.sort();
    for (const family of families) {
      const members = data.preferences.filter((p) => p.family === family);
      const title = "family-" + family;
      box.append(el("section", { class: "family", "aria-labelledby": title, "data-family": family },
        el("h3", { id: title, text: family }),
        el("div", { class: "cards" }, members.map((p) => el("article", {
          class: "card pref", id: preferenceIds.get(p.name), "data-name": p.name, tabindex: "-1",
        },
        el("h4", {}, el("a", { href: "#" + preferenceIds.get(p.name), text: p.name })),
        el("p", { text: p.displayName }),
        p.deprecated ? deprecatedNote("preference", p) : null,
        el("dl", { class: "facts" },
          el("dt", { text: "Minimum vCPUs" }), el("dd", { text: p.cpu ? String(p.cpu) : "none" }),
          el("dt", { text: "Minimum memory" }), el("dd", { text: p.memoryText || "none" }),
          el("dt", { text: "Architecture" }), el("dd", { text: p.architecture || "any" }),
          el("dt", { text: "Firmware" }), el("dd", { text: p.firmware }),
          el("dt", { text: "Disk bus" }), el("dd", { text: p.diskBus || "default" }),
          el("dt", { text: "Network" }), el("dd", { text: p.networkBus || "default" }),
          el("dt", { text: "KubeVirt" }), el("dd", { text: since(p.kubevirt) }),
          p.os ? osFacts(p.os) : null),
        p.notable.length ? el("ul", { class: "badges", "aria-label": "Other settings" },
          p.notable.map((n) => el("li", { text: n }))) : null)))));
    }
  }

  // ---- details of the linked object ----
  function showDetails(id) {
    const box = document.getElementById("details");
    const entry = byName.get(id);
    if (!entry || entry.family !== "instancetype") { box.hidden = true; return; }
    const it = entry.record;
    box.replaceChildren(
      el("h3", { text: it.name }),
      el("p", {}, cpus(it.cpu) + ", " + it.memoryText + " memory · kinds: " + it.kinds.join(", ") +
        " · KubeVirt " + since(it.kubevirt) + (it.deprecated ? " · deprecated" : ""),
      it.deprecated ? lifecycleNodes("instancetype", it.lifecycle) : null),
      el("pre", { tabindex: "0", "aria-label": "Labels and spec of " + it.name },
        JSON.stringify({ labels: it.labels, spec: it.spec }, null, 2)));
    box.hidden = false;
  }

  // ---- filtering ----
  let current = "";
  function applySelector(text) {
    const error = document.getElementById("selector-error");
    const count = document.getElementById("selector-count");
    let requirements;
    try {
      requirements = text.trim() ? parseSelector(text) : [];
    } catch (e) {
      // the CLI's report line: PLACE: error: MESSAGE [RULE]
      const cut = e.message.indexOf(": ");
      error.textContent = e.message.slice(0, cut) + ": error: " + e.message.slice(cut + 2) + " [input]";
      error.hidden = false;
      return false;
    }
    error.hidden = true;
    error.textContent = "";
    current = text;
    let its = 0;
    let prefs = 0;
    for (const link of document.querySelectorAll("#size-grid a.it")) {
      const ok = matches(requirements, byName.get(link.dataset.name).record.labels);
      link.hidden = !ok;
      its += ok;
    }
    for (const point of document.querySelectorAll(".chart .point")) {
      const it = byName.get(point.dataset.name).record;
      point.classList.toggle("out", !matches(requirements, it.labels));
    }
    for (const card of document.querySelectorAll("#preference-groups .pref")) {
      const ok = matches(requirements, data.preferences.find((p) => p.name === card.dataset.name).labels);
      card.hidden = !ok;
      prefs += ok;
    }
    for (const family of document.querySelectorAll("#preference-groups .family")) {
      family.hidden = !family.querySelector(".pref:not([hidden])");
    }
    document.getElementById("preferences-none").hidden = prefs > 0;
    document.getElementById("sizes-none").hidden = its > 0;
    // rows and columns left without a visible instancetype are hidden, so a filtered grid stays small
    const grid = document.getElementById("size-grid");
    const used = new Set();
    for (const row of grid.tBodies[0].rows) {
      row.hidden = !row.querySelector("a.it:not([hidden])");
      for (const cell of row.cells) if (cell.querySelector("a.it:not([hidden])")) used.add(cell.cellIndex);
    }
    for (const row of grid.rows) {
      for (const cell of row.cells) if (cell.cellIndex > 0) cell.hidden = !used.has(cell.cellIndex);
    }
    count.textContent = requirements.length
      ? plural(its, "instancetype") + " and " + plural(prefs, "preference") + " match."
      : plural(its, "instancetype") + " and " + plural(prefs, "preference") + ".";
    return true;
  }

  // ---- what fits ----
  function renderFitOptions() {
    const select = document.getElementById("fit-preference");
    for (const p of data.preferences) {
      select.append(el("option", { value: p.name, text: p.name + " — " + p.displayName }));
    }
    select.addEventListener("change", () => { showFit(select.value, null); writeHash(); });
    const its = document.getElementById("fit-instancetype");
    its.addEventListener("change", () => { showManifest(); writeHash(); });
  }

  function showFit(preference, instancetype) {
    if (!data.preferences.length) return;
    const select = document.getElementById("fit-preference");
    if (!data.preferences.some((p) => p.name === preference)) preference = data.preferences[0].name;
    select.value = preference;
    const refused = data.fit.refused[preference] || {};
    const accepted = data.instancetypes.filter((it) => !(it.name in refused));
    const ok = document.getElementById("fit-accepted");
    ok.replaceChildren(...accepted.map((it) => el("li", { class: "ok", "data-name": it.name },
      el("a", { href: "#" + it.name, text: it.name }))));
    // refusals grouped by KubeVirt's message: a handful of reasons, each with its instancetypes
    const bad = document.getElementById("fit-refused");
    const groups = new Map();
    for (const it of data.instancetypes) {
      if (!(it.name in refused)) continue;
      const [message, reason] = refused[it.name];
      if (!groups.has(message)) groups.set(message, { reason: reason || "", names: [] });
      groups.get(message).names.push(it.name);
    }
    bad.replaceChildren(...[...groups].map(([message, group]) => el("li", { class: "refusal", "data-reason": group.reason },
      el("p", { class: "why", text: data.fit.messages[message] }),
      el("ul", { class: "chips", "aria-label": "Refused for this reason" },
        group.names.map((name) => el("li", { "data-name": name }, el("a", { href: "#" + name, text: name })))))));
    document.getElementById("fit-summary").textContent = "With " + preference + ", KubeVirt accepts " +
      plural(accepted.length, "instancetype") + " and refuses " + (data.instancetypes.length - accepted.length) + ".";
    const its = document.getElementById("fit-instancetype");
    its.replaceChildren(...accepted.map((it) => el("option", { value: it.name, text: it.name })));
    // the smallest accepted current instancetype unless the URL names one
    const smallest = accepted.filter((it) => !it.deprecated)
      .sort((a, b) => a.cpu - b.cpu || a.memory - b.memory || (a.name > b.name) - (a.name < b.name))[0];
    if (instancetype && accepted.some((it) => it.name === instancetype)) its.value = instancetype;
    else if (smallest) its.value = smallest.name;
    showManifest();
  }

  function showManifest() {
    const preference = document.getElementById("fit-preference").value;
    const instancetype = document.getElementById("fit-instancetype").value;
    const pre = document.getElementById("manifest");
    pre.textContent = instancetype
      ? data.manifest.replace("INSTANCETYPE", instancetype).replace("PREFERENCE", preference)
      : "# no instancetype of this catalog fits " + preference + "\n";
  }

  async function copyManifest() {
    const text = document.getElementById("manifest").textContent;
    const status = document.getElementById("copy-status");
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = "Copied.";
    } catch (e) {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById("manifest"));
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      status.textContent = document.execCommand("copy") ? "Copied." : "Selected; press Ctrl+C to copy.";
    }
  }

  // ---- the URL: #l=<selector>&fit=<preference>&with=<instancetype>, or #<object> ----
  function writeHash() {
    const params = new URLSearchParams();
    if (current.trim()) params.set("l", current);
    params.set("fit", document.getElementById("fit-preference").value);
    if (document.getElementById("fit-instancetype").value) {
      params.set("with", document.getElementById("fit-instancetype").value);
    }
    history.replaceState(null, "", "#" + params.toString());
  }

  function readHash() {
    let hash = location.hash.slice(1);
    try {
      hash = decodeURIComponent(hash);
    } catch (e) {
      // a hand-edited link with a stray %: look for it as written
    }
    if (location.hash.slice(1).includes("=")) {
      const params = new URLSearchParams(location.hash.slice(1));
      const selector = params.get("l") || "";
      document.getElementById("selector").value = selector;
      applySelector(selector);
      showFit(params.get("fit"), params.get("with"));
    } else if (hash) {
      showDetails(hash);
      const target = document.getElementById(hash);
      if (target) target.scrollIntoView({ block: "center" });
    }
  }

  function init() {
    renderSeries();
    renderGrid();
    renderPreferences();
    renderRetired();
    renderFitOptions();
    applySelector("");
    showFit(null, null);
    const form = document.getElementById("filter-form");
    const input = document.getElementById("selector");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (applySelector(input.value)) writeHash();
    });
    document.getElementById("selector-clear").addEventListener("click", () => {
      input.value = "";
      applySelector("");
      writeHash();
    });
    document.getElementById("copy-manifest").addEventListener("click", copyManifest);
    document.addEventListener("keydown", (event) => {
      if (event.key === "/" && !["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) {
        event.preventDefault();
        input.focus();
      }
    });
    window.addEventListener("hashchange", readHash);
    readHash();
    document.documentElement.dataset.ready = "true";
  }

  init();
})();
