// The staff app's page: logs in (LIFF inside LINE, or the console's stand-in login in local mode), then shows
// the shop's summary, history and export for a range. No inline script: everything is here and in texts.js
// (the words, dates and numbers in the shop's language).
/* global document, window, fetch, location, history, sessionStorage, URL, URLSearchParams */
import { TEXTS, errorText, formatCount, formatDateTime, formatDayMonth, formatHour, formatMoney, formatRowTime } from "./texts.js";

(() => {
  const body = document.body;
  const cfg = {
    lang: body.dataset.lang === "en" ? "en" : "th",
    api: body.dataset.api,
    mode: body.dataset.mode === "local" ? "local" : "line",
    liffId: body.dataset.liffId,
    timeZone: body.dataset.timeZone || "Asia/Bangkok",
    shopName: body.dataset.shopName || "",
  };
  const T = TEXTS[cfg.lang];
  const STATUSES = ["valid", "invalid", "fraud", "duplicate", "not_found", "error"];
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const child of children) node.append(child);
    return node;
  };
  const statusWord = (s) => (s && T.status[s]) || s || "–";
  const sourceWord = (s) => (s && T.source[s]) || s || "–";

  // Days in the shop's zone, as YYYY-MM-DD.
  const isoDay = (date) => new Intl.DateTimeFormat("en-CA", { timeZone: cfg.timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
  const addDays = (day, n) => {
    const d = new Date(`${day}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  };
  const RANGES = {
    today: () => {
      const t = isoDay(new Date());
      return [t, t];
    },
    yesterday: () => {
      const y = addDays(isoDay(new Date()), -1);
      return [y, y];
    },
    // An owner's อาทิตย์นี้ is the week since Monday, as the chat reads it.
    week: () => {
      const t = isoDay(new Date());
      const sinceMonday = (new Date(`${t}T00:00:00Z`).getUTCDay() + 6) % 7;
      return [addDays(t, -sinceMonday), t];
    },
    days7: () => {
      const t = isoDay(new Date());
      return [addDays(t, -6), t];
    },
    month: () => {
      const t = isoDay(new Date());
      return [`${t.slice(0, 8)}01`, t];
    },
    lastmonth: () => {
      const first = `${isoDay(new Date()).slice(0, 8)}01`;
      const last = addDays(first, -1);
      return [`${last.slice(0, 8)}01`, last];
    },
  };

  const state = { token: undefined, range: "today", from: "", to: "", status: "", source: "", q: "", page: 1, limit: 20, pages: 1 };

  function notice(text, kind) {
    const box = $("notice");
    box.textContent = text;
    box.className = `notice${kind === "error" ? " error" : ""}`;
    box.hidden = false;
  }

  class ApiError extends Error {
    constructor(status, body) {
      super(body.message || `HTTP ${status}`);
      this.status = status;
      this.body = body;
    }
  }

  async function api(path, params) {
    const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "" && v !== undefined));
    let res;
    try {
      res = await fetch(`${cfg.api}/${path}?${query}`, { headers: { Authorization: `Bearer ${state.token}` }, cache: "no-store" });
    } catch {
      throw new Error(T.offline);
    }
    if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => ({})));
    return res;
  }

  function showFailure(err) {
    if (!(err instanceof ApiError)) return notice(String(err.message || err), "error");
    // Not logged in, or not staff: nothing of the shop is shown, only what to do.
    if (err.status === 401 || err.status === 403) for (const id of ["controls", "summary", "history"]) $(id).hidden = true;
    // In the shop's language from the error's code (a 403 with the user's own id, to give to the owner).
    notice(errorText(cfg.lang, cfg.mode, err.body), "error");
  }

  function filters() {
    return { from: state.from, to: state.to, status: state.status, source: state.source, q: state.q };
  }

  /** Shows a tapped bar's figures under the chart (a phone shows no hover), and marks the bar. */
  function pickBar(svg, column, text) {
    for (const picked of svg.querySelectorAll(".picked")) picked.classList.remove("picked");
    column.classList.add("picked");
    $("chart-value").textContent = text;
  }

  function chartSvg(chart) {
    const bars = chart.bars;
    const max = Math.max(1, ...bars.map((b) => b.count));
    const w = 300,
      h = 100,
      gap = 1,
      bw = w / bars.length;
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${w} ${h + 14}`);
    svg.setAttribute("role", "img");
    bars.forEach((bar, i) => {
      const bh = (bar.count / max) * h;
      const tip = T.chartTip(chart.per, bar.at, bar.count, bar.validSatang);
      // The whole column is the tap target, so that a short bar is as easy to hit as a tall one.
      const column = document.createElementNS(ns, "g");
      column.setAttribute("class", "bar");
      column.setAttribute("tabindex", "0");
      column.setAttribute("role", "button");
      column.setAttribute("aria-label", tip);
      const hit = document.createElementNS(ns, "rect");
      hit.setAttribute("x", String(i * bw));
      hit.setAttribute("y", "0");
      hit.setAttribute("width", String(bw));
      hit.setAttribute("height", String(h));
      hit.setAttribute("class", "hit");
      const rect = document.createElementNS(ns, "rect");
      rect.setAttribute("x", String(i * bw + gap / 2));
      rect.setAttribute("y", String(h - bh));
      rect.setAttribute("width", String(Math.max(1, bw - gap)));
      rect.setAttribute("height", String(bh));
      rect.setAttribute("class", "fill");
      const title = document.createElementNS(ns, "title");
      title.textContent = tip;
      column.append(title, hit, rect);
      column.addEventListener("click", () => pickBar(svg, column, tip));
      column.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          pickBar(svg, column, tip);
        }
      });
      svg.append(column);
    });
    const label = (x, text, anchor) => {
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", String(x));
      t.setAttribute("y", String(h + 12));
      t.setAttribute("font-size", "9");
      t.setAttribute("fill", "#667085");
      t.setAttribute("text-anchor", anchor);
      t.textContent = text;
      svg.append(t);
    };
    const first = bars[0],
      last = bars[bars.length - 1];
    // The ends as a column writes them: bare hours, days without the year.
    const end = (bar) => (chart.per === "hour" ? formatHour(bar.at) : formatDayMonth(bar.at, cfg.lang));
    if (first) label(0, end(first), "start");
    if (last) label(w, end(last), "end");
    return svg;
  }

  async function loadSummary() {
    const res = await api("summary", { from: state.from, to: state.to, status: state.status });
    const s = await res.json();
    $("sum-count").textContent = formatCount(s.count);
    $("sum-valid").textContent = formatMoney(s.validSatang);
    $("chart-title").textContent = T.chartTitle(s.chart.per);
    $("chart").replaceChildren(chartSvg(s.chart));
    $("chart-value").textContent = T.chartHint;
    $("by-status").replaceChildren(...s.byStatus.map((f) => el("li", {}, el("span", {}, statusWord(f.status)), el("span", {}, formatCount(f.count)))));
    $("by-source").replaceChildren(...s.bySource.map((f) => el("li", {}, el("span", {}, sourceWord(f.source)), el("span", {}, formatCount(f.count)))));
    const notes = [];
    if (s.cut.days) notes.push(T.cutDays(s.coveredFrom, s.coveredTo));
    if (s.cut.checks) notes.push(T.cutChecks(s.count));
    $("sum-cut").textContent = notes.join(" ");
    $("sum-cut").hidden = notes.length === 0;
    $("export-note").textContent = notes.join(" ");
    $("export-note").hidden = notes.length === 0;
    // The channels seen in the range become the channel filter's choices.
    const sources = $("source");
    const chosen = state.source;
    sources.replaceChildren(
      el("option", { value: "" }, T.allChannels),
      ...s.bySource.filter((f) => f.source !== "").map((f) => el("option", { value: f.source }, sourceWord(f.source))),
    );
    if (chosen && !s.bySource.some((f) => f.source === chosen)) sources.append(el("option", { value: chosen }, sourceWord(chosen)));
    sources.value = chosen;
    $("summary").hidden = false;
  }

  function row(item) {
    const li = el(
      "li",
      { "data-ref": item.transRef || "" },
      el("span", { class: "who" }, item.senderName || "–"),
      el("span", { class: "amount" }, item.amount === null ? "–" : formatMoney(Math.round(item.amount * 100))),
      el("span", { class: "when" }, `${formatRowTime(item.createdAt, cfg.lang, cfg.timeZone, state.to)} · ${item.transRef || ""}`),
      el("span", { class: `badge${STATUSES.includes(item.status) ? ` s-${item.status}` : ""}` }, statusWord(item.status)),
    );
    li.addEventListener("click", () => showDetails(item));
    return li;
  }

  function showDetails(item) {
    const list = $("detail-list");
    list.replaceChildren();
    for (const [key, label] of Object.entries(T.fields)) {
      let value = item[key];
      if (key === "createdAt" || key === "transDate") value = formatDateTime(value, cfg.lang, cfg.timeZone);
      else if (key === "status") value = statusWord(value);
      else if (key === "source") value = sourceWord(value);
      else if (key === "amount") value = value === null || value === undefined ? "–" : formatMoney(Math.round(value * 100));
      list.append(el("dt", {}, label), el("dd", {}, value === null || value === undefined ? "–" : String(value)));
    }
    const dialog = $("details");
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }

  async function loadHistory() {
    $("state").textContent = T.loading;
    $("items").replaceChildren();
    const res = await api("history", { ...filters(), page: state.page, limit: state.limit });
    const h = await res.json();
    state.pages = Math.max(1, h.pagination.pages);
    $("items").replaceChildren(...h.items.map(row));
    const view = { range: state.range, from: state.from, to: state.to, status: state.status ? statusWord(state.status) : undefined, q: state.q };
    $("state").textContent = h.items.length === 0 ? T.empty(view) : h.searched && h.searched.cut ? T.searchCut(h.searched.checks) : "";
    $("page-info").textContent = T.page(state.page, state.pages);
    $("prev").disabled = state.page <= 1;
    $("next").disabled = state.page >= state.pages;
    $("history").hidden = false;
  }

  async function refresh(withSummary) {
    $("notice").hidden = true;
    try {
      await Promise.all([withSummary ? loadSummary() : Promise.resolve(), loadHistory()]);
    } catch (err) {
      $("state").textContent = "";
      showFailure(err);
    }
  }

  /** Under the chips: which days the figures and the list are of, in the chat's words (the date inputs follow the phone). */
  function showDays() {
    $("days").textContent = T.daysLine({ range: state.range, from: state.from, to: state.to });
  }

  function setRange(name) {
    state.range = name;
    for (const b of $("ranges").children) b.setAttribute("aria-pressed", String(b.dataset.range === name));
    $("custom-dates").hidden = name !== "custom";
    if (name === "custom") return;
    [state.from, state.to] = RANGES[name]();
    state.page = 1;
    showDays();
    void refresh(true);
  }

  /** The file in the shop's words, or (`raw`) the all-English one for accounting software. */
  async function exportCsv(format) {
    const button = $(format === "raw" ? "export-raw" : "export");
    const label = button.textContent;
    button.disabled = true;
    button.textContent = T.exporting;
    const params = { ...filters(), format };
    try {
      // Inside LINE a script's file is not saved: a one-time link opens in the phone's browser, which downloads it.
      if (cfg.mode !== "local" && window.liff && window.liff.isInClient()) {
        const { url } = await (await api("export-link", params)).json();
        window.liff.openWindow({ url: new URL(url, location.href).href, external: true });
        return;
      }
      const res = await api("export.csv", params);
      const blob = await res.blob();
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") || "");
      const a = el("a", { href: URL.createObjectURL(blob), download: name ? name[1] : "slipline.csv" });
      document.body.append(a);
      a.click();
      a.remove();
      const cut = res.headers.get("x-export-cut") || "none";
      if (cut !== "none") notice(cut.includes("days") ? T.exportCutDays : T.exportCutChecks);
    } catch (err) {
      showFailure(err);
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  }

  function build() {
    document.title = `${T.title} · slipline`;
    $("title").textContent = T.title;
    $("shop-name").textContent = cfg.shopName;
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = T[node.dataset.t];
    for (const node of document.querySelectorAll("[data-aria]")) node.setAttribute("aria-label", T[node.dataset.aria]);
    $("q").placeholder = T.searchHint;
    for (const name of [...Object.keys(RANGES), "custom"]) {
      const b = el("button", { type: "button", "data-range": name, "aria-pressed": "false" }, T[name]);
      b.addEventListener("click", () => setRange(name));
      $("ranges").append(b);
    }
    $("status").append(el("option", { value: "" }, T.allStatuses), ...Object.keys(T.status).map((s) => el("option", { value: s }, T.status[s])));
    $("source").append(el("option", { value: "" }, T.allChannels));
    $("status").addEventListener("change", () => {
      state.status = $("status").value;
      state.page = 1;
      void refresh(true);
    });
    $("source").addEventListener("change", () => {
      state.source = $("source").value;
      state.page = 1;
      void refresh(false);
    });
    $("search-form").addEventListener("submit", (e) => {
      e.preventDefault();
      state.q = $("q").value.trim();
      state.page = 1;
      void refresh(false);
    });
    $("apply-dates").addEventListener("click", () => {
      state.from = $("from").value || $("to").value || isoDay(new Date());
      state.to = $("to").value || state.from;
      state.page = 1;
      showDays();
      void refresh(true);
    });
    $("prev").addEventListener("click", () => {
      state.page -= 1;
      void refresh(false);
    });
    $("next").addEventListener("click", () => {
      state.page += 1;
      void refresh(false);
    });
    $("limit").addEventListener("change", () => {
      state.limit = Number($("limit").value);
      state.page = 1;
      void refresh(false);
    });
    $("export").addEventListener("click", () => void exportCsv(undefined));
    $("export-raw").addEventListener("click", () => void exportCsv("raw"));
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = el("script", { src });
      s.addEventListener("load", resolve);
      s.addEventListener("error", () => reject(new Error(T.liffScript)));
      document.head.append(s);
    });
  }

  /** The ID token: LIFF inside LINE; in local mode, the one the console put after the # (then taken out of the address). */
  async function login() {
    if (cfg.mode === "local") {
      const found = /(?:^#|&)id_token=([^&]+)/.exec(location.hash);
      if (found) {
        sessionStorage.setItem("slipline.idToken", decodeURIComponent(found[1]));
        history.replaceState(null, "", location.pathname);
      }
      return sessionStorage.getItem("slipline.idToken") || undefined;
    }
    await loadScript("/app/assets/liff.js");
    const liff = window.liff;
    try {
      await liff.init({ liffId: cfg.liffId, withLoginOnExternalBrowser: true });
    } catch {
      // LIFF's own message is English and technical: the shop's words, and how to open the app again.
      throw new Error(T.loginFailed(cfg.mode));
    }
    if (!liff.isLoggedIn()) {
      liff.login({ redirectUri: location.href });
      return undefined;
    }
    return liff.getIDToken() || undefined;
  }

  build();
  login().then(
    (token) => {
      if (!token) return notice(T.notLoggedIn(cfg.mode));
      state.token = token;
      $("controls").hidden = false;
      setRange("today");
    },
    (err) => notice(String(err.message || err), "error"),
  );
})();
