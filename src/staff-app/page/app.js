// The staff app's page: logs in (LIFF inside LINE, or the console's stand-in login in local mode), then shows
// the shop's summary, history and export for a range. No inline script: everything is here.
/* global document, window, fetch, location, history, sessionStorage, URL, URLSearchParams */
"use strict";
(() => {
  const body = document.body;
  const cfg = { lang: body.dataset.lang === "en" ? "en" : "th", api: body.dataset.api, mode: body.dataset.mode, liffId: body.dataset.liffId, timeZone: body.dataset.timeZone || "Asia/Bangkok", shopName: body.dataset.shopName || "" };
  const T = {
    th: {
      title: "แอปพนักงาน", today: "วันนี้", yesterday: "เมื่อวาน", days7: "7 วัน", month: "เดือนนี้", lastmonth: "เดือนที่แล้ว", custom: "เลือกวันที่",
      from: "ตั้งแต่", to: "ถึง", apply: "ดู", search: "ค้นหา", searchHint: "เลขอ้างอิง หรือชื่อผู้โอน/ผู้รับเงิน",
      allStatuses: "ทุกสถานะ", allChannels: "ทุกช่องทาง", checks: "สลิปที่ตรวจ", validAmount: "ยอดโอนเข้า (สลิปที่ผ่าน)",
      byStatus: "แยกตามสถานะ", byChannel: "แยกตามช่องทาง", history: "ประวัติตรวจสลิป", export: "ส่งออก CSV",
      prev: "ก่อนหน้า", next: "ถัดไป", details: "รายละเอียดสลิป", close: "ปิด", loading: "กำลังโหลด…", empty: "ไม่มีสลิปที่ตรวจในวันที่เลือก",
      page: (p, n) => `หน้า ${p} จาก ${n}`,
      cutDays: (a, b) => `ช่วงยาวเกิน 31 วัน: สรุปและไฟล์ส่งออกนับเฉพาะ ${a} ถึง ${b}`,
      cutChecks: (n) => `สลิปเกิน 20,000 ใบ: นับเฉพาะ ${n} ใบล่าสุด`,
      searchCut: (n) => `ค้นหาเฉพาะ ${n} สลิปล่าสุดของช่วงนี้`,
      exportCut: "ไฟล์ถูกตัด: ดูหมายเหตุด้านบน", exporting: "กำลังส่งออก…",
      noLogin: "เปิดแอปนี้จากเมนูพนักงานในแชท LINE ของร้าน (ในโหมดทดลองบนเครื่อง: กด “เปิดแอปพนักงาน” ในหน้าแชท)",
      retry: "ลองใหม่", offline: "ติดต่อบอทของร้านไม่ได้ค่ะ ตรวจสอบอินเทอร์เน็ตแล้วลองใหม่อีกครั้งนะคะ",
      fields: { createdAt: "เวลาตรวจ", transDate: "เวลาโอน", status: "สถานะ", amount: "ยอด", transRef: "เลขอ้างอิง", senderName: "ผู้โอน", receiverName: "ผู้รับเงิน", receiverAccount: "บัญชีผู้รับ", source: "ช่องทาง", tokensCharged: "โทเคนที่ใช้", code: "รหัส" },
      status: { valid: "ผ่าน", invalid: "ไม่ผ่าน", fraud: "ปลอม", duplicate: "ซ้ำ", not_found: "ไม่พบ", error: "ผิดพลาด" },
      source: { api: "API", dashboard: "แดชบอร์ด", line_partner: "LINE พาร์ทเนอร์", line_group: "กลุ่ม LINE", line_oa_system: "LINE OA ของระบบ", line_oa_merchant: "LINE OA ของร้าน", facebook_page: "เพจ Facebook" },
    },
    en: {
      title: "Staff app", today: "Today", yesterday: "Yesterday", days7: "7 days", month: "This month", lastmonth: "Last month", custom: "Dates",
      from: "From", to: "To", apply: "Show", search: "Search", searchHint: "Reference, or payer's or receiver's name",
      allStatuses: "All statuses", allChannels: "All channels", checks: "Checks", validAmount: "Valid amount",
      byStatus: "By status", byChannel: "By channel", history: "Slip checks", export: "Export CSV",
      prev: "Previous", next: "Next", details: "Check details", close: "Close", loading: "Loading…", empty: "No slip checks on these days",
      page: (p, n) => `Page ${p} of ${n}`,
      cutDays: (a, b) => `More than 31 days: the summary and the export cover ${a} to ${b} only`,
      cutChecks: (n) => `More than 20,000 checks: only the newest ${n} are counted`,
      searchCut: (n) => `Searched the newest ${n} checks of these days only`,
      exportCut: "The file was cut: see the note above", exporting: "Exporting…",
      noLogin: "Open this app from the staff menu in the shop's LINE chat (in local mode: “Open the staff app” in the chat console).",
      retry: "Try again", offline: "The shop's bot could not be reached. Check the connection and try again.",
      fields: { createdAt: "Checked", transDate: "Transferred", status: "Status", amount: "Amount", transRef: "Reference", senderName: "Payer", receiverName: "Receiver", receiverAccount: "Receiver's account", source: "Channel", tokensCharged: "Tokens", code: "Code" },
      status: { valid: "Valid", invalid: "Invalid", fraud: "Fraud", duplicate: "Duplicate", not_found: "Not found", error: "Error" },
      source: { api: "API", dashboard: "Dashboard", line_partner: "LINE partner", line_group: "LINE group", line_oa_system: "LINE OA (system)", line_oa_merchant: "LINE OA (shop)", facebook_page: "Facebook page" },
    },
  }[cfg.lang];
  const STATUSES = ["valid", "invalid", "fraud", "duplicate", "not_found", "error"];
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const child of children) node.append(child);
    return node;
  };
  const money = new Intl.NumberFormat(cfg.lang === "th" ? "th-TH" : "en-US", { style: "currency", currency: "THB" });
  const baht = (satang) => money.format(satang / 100);
  const timeText = new Intl.DateTimeFormat(cfg.lang === "th" ? "th-TH" : "en-GB", { timeZone: cfg.timeZone, dateStyle: "medium", timeStyle: "short" });
  const when = (iso) => (iso ? timeText.format(new Date(iso)) : "–");
  const statusWord = (s) => (s && T.status[s]) || s || "–";
  const sourceWord = (s) => (s && T.source[s]) || s || "–";

  // Days in the shop's zone, as YYYY-MM-DD.
  const isoDay = (date) => new Intl.DateTimeFormat("en-CA", { timeZone: cfg.timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
  const addDays = (day, n) => { const d = new Date(`${day}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + n); return d.toISOString().slice(0, 10); };
  const RANGES = {
    today: () => { const t = isoDay(new Date()); return [t, t]; },
    yesterday: () => { const y = addDays(isoDay(new Date()), -1); return [y, y]; },
    days7: () => { const t = isoDay(new Date()); return [addDays(t, -6), t]; },
    month: () => { const t = isoDay(new Date()); return [`${t.slice(0, 8)}01`, t]; },
    lastmonth: () => { const first = `${isoDay(new Date()).slice(0, 8)}01`; const last = addDays(first, -1); return [`${last.slice(0, 8)}01`, last]; },
  };

  const state = { token: undefined, range: "today", from: "", to: "", status: "", source: "", q: "", page: 1, limit: 20, pages: 1 };

  function notice(text, kind) {
    const box = $("notice");
    box.textContent = text;
    box.className = `notice${kind === "error" ? " error" : ""}`;
    box.hidden = false;
  }

  class ApiError extends Error {
    constructor(status, body) { super(body.message || `HTTP ${status}`); this.status = status; this.body = body; }
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
    // The user's own id, so that they can give it to the owner.
    notice(err.status === 403 && err.body.userId ? `${err.body.message} (${err.body.userId})` : err.body.message || err.message, "error");
  }

  function filters() {
    return { from: state.from, to: state.to, status: state.status, source: state.source, q: state.q };
  }

  function chartSvg(chart) {
    const bars = chart.bars;
    const max = Math.max(1, ...bars.map((b) => b.count));
    const w = 300, h = 100, gap = 1, bw = w / bars.length;
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${w} ${h + 14}`);
    svg.setAttribute("role", "img");
    bars.forEach((bar, i) => {
      const bh = (bar.count / max) * h;
      const rect = document.createElementNS(ns, "rect");
      rect.setAttribute("x", String(i * bw + gap / 2));
      rect.setAttribute("y", String(h - bh));
      rect.setAttribute("width", String(Math.max(1, bw - gap)));
      rect.setAttribute("height", String(bh));
      rect.setAttribute("fill", "#06c755");
      const title = document.createElementNS(ns, "title");
      title.textContent = `${chart.per === "hour" ? `${bar.at}:00` : bar.at}: ${bar.count} · ${baht(bar.validSatang)}`;
      rect.append(title);
      svg.append(rect);
    });
    const label = (x, text, anchor) => {
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", String(x)); t.setAttribute("y", String(h + 12)); t.setAttribute("font-size", "9"); t.setAttribute("fill", "#667085"); t.setAttribute("text-anchor", anchor);
      t.textContent = text;
      svg.append(t);
    };
    const first = bars[0], last = bars[bars.length - 1];
    if (first) label(0, chart.per === "hour" ? "00:00" : String(first.at).slice(5), "start");
    if (last) label(w, chart.per === "hour" ? "23:00" : String(last.at).slice(5), "end");
    return svg;
  }

  async function loadSummary() {
    const res = await api("summary", { from: state.from, to: state.to, status: state.status });
    const s = await res.json();
    $("sum-count").textContent = String(s.count);
    $("sum-valid").textContent = baht(s.validSatang);
    $("chart").replaceChildren(chartSvg(s.chart));
    $("by-status").replaceChildren(...s.byStatus.map((f) => el("li", {}, el("span", {}, statusWord(f.status)), el("span", {}, String(f.count)))));
    $("by-source").replaceChildren(...s.bySource.map((f) => el("li", {}, el("span", {}, sourceWord(f.source)), el("span", {}, String(f.count)))));
    const notes = [];
    if (s.cut.days) notes.push(T.cutDays(s.coveredFrom, s.coveredTo));
    if (s.cut.checks) notes.push(T.cutChecks(s.count));
    $("sum-cut").textContent = notes.join(" · ");
    $("sum-cut").hidden = notes.length === 0;
    $("export-note").textContent = notes.join(" · ");
    $("export-note").hidden = notes.length === 0;
    // The channels seen in the range become the channel filter's choices.
    const sources = $("source");
    const chosen = state.source;
    sources.replaceChildren(el("option", { value: "" }, T.allChannels), ...s.bySource.filter((f) => f.source !== "").map((f) => el("option", { value: f.source }, sourceWord(f.source))));
    if (chosen && !s.bySource.some((f) => f.source === chosen)) sources.append(el("option", { value: chosen }, sourceWord(chosen)));
    sources.value = chosen;
    $("summary").hidden = false;
  }

  function row(item) {
    const li = el(
      "li",
      { "data-ref": item.transRef || "" },
      el("span", { class: "who" }, item.senderName || "–"),
      el("span", { class: "amount" }, item.amount === null ? "–" : baht(Math.round(item.amount * 100))),
      el("span", { class: "when" }, `${when(item.createdAt)} · ${item.transRef || ""}`),
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
      if (key === "createdAt" || key === "transDate") value = value ? `${when(value)} (${value})` : "–";
      else if (key === "status") value = statusWord(value);
      else if (key === "source") value = sourceWord(value);
      else if (key === "amount") value = value === null ? "–" : baht(Math.round(value * 100));
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
    $("state").textContent = h.items.length === 0 ? T.empty : h.searched && h.searched.cut ? T.searchCut(h.searched.checks) : "";
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

  function setRange(name) {
    state.range = name;
    for (const b of $("ranges").children) b.setAttribute("aria-pressed", String(b.dataset.range === name));
    $("custom-dates").hidden = name !== "custom";
    if (name === "custom") return;
    [state.from, state.to] = RANGES[name]();
    state.page = 1;
    void refresh(true);
  }

  async function exportCsv() {
    const button = $("export");
    button.disabled = true;
    button.textContent = T.exporting;
    try {
      // Inside LINE a script's file is not saved: a one-time link opens in the phone's browser, which downloads it.
      if (cfg.mode !== "local" && window.liff && window.liff.isInClient()) {
        const { url } = await (await api("export-link", filters())).json();
        window.liff.openWindow({ url: new URL(url, location.href).href, external: true });
        return;
      }
      const res = await api("export.csv", filters());
      const blob = await res.blob();
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") || "");
      const a = el("a", { href: URL.createObjectURL(blob), download: name ? name[1] : "slipline.csv" });
      document.body.append(a);
      a.click();
      a.remove();
      if ((res.headers.get("x-export-cut") || "none") !== "none") notice(T.exportCut);
    } catch (err) {
      showFailure(err);
    } finally {
      button.disabled = false;
      button.textContent = T.export;
    }
  }

  function build() {
    document.title = `${T.title} · slipline`;
    $("title").textContent = T.title;
    $("shop-name").textContent = cfg.shopName;
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = T[node.dataset.t];
    $("q").placeholder = T.searchHint;
    for (const name of [...Object.keys(RANGES), "custom"]) {
      const b = el("button", { type: "button", "data-range": name, "aria-pressed": "false" }, T[name]);
      b.addEventListener("click", () => setRange(name));
      $("ranges").append(b);
    }
    $("status").append(el("option", { value: "" }, T.allStatuses), ...Object.keys(T.status).map((s) => el("option", { value: s }, T.status[s])));
    $("source").append(el("option", { value: "" }, T.allChannels));
    $("status").addEventListener("change", () => { state.status = $("status").value; state.page = 1; void refresh(true); });
    $("source").addEventListener("change", () => { state.source = $("source").value; state.page = 1; void refresh(false); });
    $("search-form").addEventListener("submit", (e) => { e.preventDefault(); state.q = $("q").value.trim(); state.page = 1; void refresh(false); });
    $("apply-dates").addEventListener("click", () => { state.from = $("from").value; state.to = $("to").value || state.from; state.page = 1; void refresh(true); });
    $("prev").addEventListener("click", () => { state.page -= 1; void refresh(false); });
    $("next").addEventListener("click", () => { state.page += 1; void refresh(false); });
    $("limit").addEventListener("change", () => { state.limit = Number($("limit").value); state.page = 1; void refresh(false); });
    $("export").addEventListener("click", () => void exportCsv());
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = el("script", { src });
      s.addEventListener("load", resolve);
      s.addEventListener("error", () => reject(new Error("The LINE login script could not be loaded. Check the connection and open the app again.")));
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
    await liff.init({ liffId: cfg.liffId, withLoginOnExternalBrowser: true });
    if (!liff.isLoggedIn()) {
      liff.login({ redirectUri: location.href });
      return undefined;
    }
    return liff.getIDToken() || undefined;
  }

  build();
  login().then(
    (token) => {
      if (!token) return notice(T.noLogin);
      state.token = token;
      $("controls").hidden = false;
      setRange("today");
    },
    (err) => notice(String(err.message || err), "error"),
  );
})();
