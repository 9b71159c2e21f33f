// The chat console page: picks who and where, sends what is typed or tapped, and shows the console's event
// stream as the LINE app would: who said what, notices, the typing dots and the bot's quick replies.
// Its helpers load before it: dom.js (window.SliplineDom), the message renderer flex.js (window.SliplineFlex,
// text, images, Flex bubbles and carousels, quick reply chips) and the rich menu rich-menu.js (window.SliplineRichMenu).
/* global document, window, fetch, EventSource, setTimeout, clearTimeout, console */
"use strict";

(function main() {
  const { el, safeUrl } = window.SliplineDom;

  const state = {
    config: { botName: "slipline", people: [], groups: [], timeZone: "", canSimulatePayment: false },
    me: "",
    chatId: "",
    // The shop whose OA the person talks to (a deployment may serve several).
    shop: "",
    entries: [],
    seen: new Set(),
    typingTimer: undefined,
    richMenu: undefined,
    // The message id being edited in the composer, if any.
    editing: undefined,
  };

  const $ = (id) => document.getElementById(id);
  // What the bot sends, as LINE shows it; a tap on a button or chip runs its action here.
  const flex = window.SliplineFlex.create({ onAction: performAction, onLayout: stickToBottom });

  // ---------------------------------------------------------------- actions

  // Every call names the shop (the OA) being played.
  async function post(path, body) {
    const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, shop: state.shop }) });
    return response.json().catch(() => ({}));
  }

  function sendText(text, via) {
    if (!text || !text.trim()) return;
    return post("/api/send", { userId: state.me, chatId: state.chatId, text, via });
  }

  /** The composer edits a sent message until it is saved or Esc is pressed. */
  function startEditing(messageId, text) {
    state.editing = messageId;
    $("text").value = text;
    $("send").textContent = "Save edit";
    $("text").focus();
  }

  function stopEditing() {
    state.editing = undefined;
    $("send").textContent = "Send";
  }

  function performAction(action) {
    if (!action || typeof action !== "object") return;
    switch (action.type) {
      case "message":
        void sendText(action.text, "quick-reply");
        break;
      case "postback":
        void post("/api/postback", {
          userId: state.me,
          chatId: state.chatId,
          data: action.data,
          displayText: action.displayText ?? action.text,
        });
        // As LINE does with a quick reply's inputOption: the keyboard opens with the text typed.
        if (action.inputOption === "openKeyboard") {
          if (typeof action.fillInText === "string") $("text").value = action.fillInText;
          $("text").focus();
        }
        break;
      case "uri": {
        const url = safeUrl(action.uri);
        if (url) window.open(url, "_blank", "noopener");
        break;
      }
      default:
        addLocalNotice(`The console does not run "${action.type}" actions.`);
    }
  }

  // ---------------------------------------------------------------- messages

  // The people and groups as the chosen shop sees them: who is staff differs from shop to shop.
  function currentShop() {
    return (state.config.shops || []).find((s) => s.id === state.shop);
  }
  function people() {
    const shop = currentShop();
    return (shop && shop.people) || state.config.people;
  }
  function groups() {
    const shop = currentShop();
    return (shop && shop.groups) || state.config.groups;
  }

  function personName(userId) {
    const person = people().find((p) => p.userId === userId);
    return person ? person.name : userId;
  }

  // Times in the shop's zone, as the bot's cards show them, whatever zone this browser is in.
  function timeOf(at) {
    const options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    if (state.config.timeZone) options.timeZone = state.config.timeZone;
    return new Date(at).toLocaleTimeString([], options);
  }

  function renderEntry(entry) {
    switch (entry.type) {
      case "user": {
        const mine = entry.userId === state.me;
        const row = el("div", `msg user${mine ? " mine" : ""}`);
        row.dataset.seq = String(entry.seq);
        if (!mine) row.appendChild(el("span", "avatar", personName(entry.userId).slice(0, 1)));
        const stack = el("div", "stack");
        if (!mine) stack.appendChild(el("div", "who", personName(entry.userId)));
        const bubble = el("div", "bubble-text", entry.text);
        bubble.dataset.kind = "text";
        if (entry.messageId) row.dataset.messageId = entry.messageId;
        stack.appendChild(bubble);
        const meta = el("div", "meta", timeOf(entry.at));
        // LINE lets people edit a text they sent in a group.
        if (mine && entry.messageId && groups().some((g) => g.groupId === entry.chatId)) {
          const editLink = el("button", "edit-link", "Edit");
          editLink.type = "button";
          editLink.addEventListener("click", () => startEditing(entry.messageId, bubble.textContent));
          meta.appendChild(editLink);
        }
        stack.appendChild(meta);
        row.appendChild(stack);
        return row;
      }
      case "edit": {
        // Shown in place, as LINE does: the message's new text and an "Edited" mark; nothing new in the list.
        const row = Array.from(document.querySelectorAll("#messages .msg.user")).find((node) => node.dataset.messageId === entry.messageId);
        if (row) {
          row.querySelector(".bubble-text").textContent = entry.text;
          const meta = row.querySelector(".meta");
          if (meta && !meta.querySelector(".edited")) meta.insertBefore(el("span", "edited", "Edited"), meta.firstChild);
        }
        return undefined;
      }
      case "bot": {
        const row = el("div", "msg bot");
        row.dataset.seq = String(entry.seq);
        row.appendChild(el("span", "avatar bot-avatar", state.config.botName.slice(0, 1).toUpperCase()));
        const stack = el("div", "stack");
        stack.appendChild(el("div", "who", state.config.botName));
        for (const message of entry.messages) stack.appendChild(flex.renderMessage(message));
        const meta = el("div", "meta", timeOf(entry.at));
        // Push costs the shop's quota, so the console marks it.
        if (entry.kind === "push") meta.appendChild(el("span", "tag", "push"));
        stack.appendChild(meta);
        row.appendChild(stack);
        return row;
      }
      case "rejected": {
        const node = el("div", "notice rejected");
        node.dataset.seq = String(entry.seq);
        node.appendChild(el("div", "", `LINE refused the bot's ${entry.path.replace("/v2/bot/", "")} (HTTP ${entry.status}): ${entry.message}`));
        if (Array.isArray(entry.details) && entry.details.length > 0) {
          const list = el("ul");
          for (const detail of entry.details) {
            const item = el("li");
            item.appendChild(el("code", "", detail.property));
            item.appendChild(document.createTextNode(`: ${detail.message}`));
            list.appendChild(item);
          }
          node.appendChild(list);
        }
        return node;
      }
      case "notice": {
        const node = el("div", "notice warning", entry.text);
        node.dataset.seq = String(entry.seq);
        return node;
      }
      case "system": {
        const node = el("div", "notice system", entry.text);
        node.dataset.seq = String(entry.seq);
        return node;
      }
      default:
        return undefined;
    }
  }

  function belongsHere(entry) {
    if (entry.shop !== undefined && entry.shop !== state.shop) return false;
    return entry.chatId === state.chatId || (entry.type === "rejected" && !entry.chatId);
  }

  /** The OA's name: the shop's, when the console plays several. */
  function oaName() {
    const shop = (state.config.shops || []).find((s) => s.id === state.shop);
    return state.config.shops && state.config.shops.length > 1 && shop ? shop.name : state.config.botName;
  }

  function render() {
    const box = $("messages");
    box.textContent = "";
    for (const entry of state.entries) {
      if (!belongsHere(entry)) continue;
      const node = renderEntry(entry);
      if (node) box.appendChild(node);
    }
    afterChange();
  }

  function append(entry) {
    if (!belongsHere(entry)) return;
    const node = renderEntry(entry);
    if (node) {
      const box = $("messages");
      const typing = box.querySelector(".typing-row");
      if (typing) typing.remove();
      box.appendChild(node);
    }
    afterChange();
  }

  /** Quick replies of the bot's last message stay until anything else is said; so does the typing dots. */
  function afterChange() {
    const here = state.entries.filter((e) => belongsHere(e) && e.type !== "rejected");
    const last = here[here.length - 1];
    flex.renderQuickReplies($("quick-replies"), last && last.type === "bot" ? last.messages[last.messages.length - 1] : undefined);
    renderTyping(last && last.type === "loading" ? last : undefined);
    stickToBottom();
  }

  /** The newest message stays in view, also when an image above it finishes loading. */
  function stickToBottom() {
    const box = $("messages");
    box.scrollTop = box.scrollHeight;
  }

  function renderTyping(loading) {
    const box = $("messages");
    const existing = box.querySelector(".typing-row");
    if (existing) existing.remove();
    if (state.typingTimer) clearTimeout(state.typingTimer);
    if (!loading) return;
    const remaining = loading.at + loading.seconds * 1000 - Date.now();
    if (remaining <= 0) return;
    const row = el("div", "msg bot typing-row");
    row.appendChild(el("span", "avatar bot-avatar", state.config.botName.slice(0, 1).toUpperCase()));
    const dots = el("div", "typing");
    dots.append(el("i"), el("i"), el("i"));
    row.appendChild(dots);
    box.appendChild(row);
    state.typingTimer = setTimeout(() => row.remove(), remaining);
  }

  function addLocalNotice(text) {
    $("messages").appendChild(el("div", "notice warning", text));
  }

  // ---------------------------------------------------------------- who and where

  // The person picker, each named with their role in this shop, and the line that says who is staff.
  function fillPeople() {
    const who = $("who");
    who.textContent = "";
    for (const person of people()) {
      const option = el("option", "", person.name);
      option.value = person.userId;
      who.appendChild(option);
    }
    if (!people().some((p) => p.userId === state.me)) state.me = people()[0] ? people()[0].userId : "";
    who.value = state.me;
    const staff = people()
      .filter((p) => p.role === "staff")
      .map((p) => p.firstName || p.name);
    const staffGroup = groups().some((g) => g.staff);
    const customers = people()
      .filter((p) => p.role !== "staff")
      .map((p) => p.firstName || p.name);
    const staffSee = staff.length > 0 ? `Staff here (${staff.join(", ")}${staffGroup ? ", anyone in the staff group" : ""})` : "Nobody here is staff";
    $("roles-hint").textContent =
      `${staffSee} see history and balance; ${customers.length > 0 ? `a customer (${customers.join(", ")})` : "a customer"} gets QR codes that pay the shop, and nothing private.`;
  }

  function fillChats() {
    // "Open the staff app" only for a shop that has one.
    const shop = currentShop();
    $("open-staff-app").hidden = !(shop && shop.hasStaffApp);
    const where = $("where");
    const previous = where.value;
    where.textContent = "";
    const direct = el("option", "", `1:1 chat with ${oaName()}`);
    direct.value = state.me;
    where.appendChild(direct);
    for (const group of groups()) {
      const option = el("option", "", group.name);
      option.value = group.groupId;
      where.appendChild(option);
    }
    // Switching person keeps a group chat; a 1:1 chat becomes the new person's own.
    const wasGroup = groups().some((g) => g.groupId === previous);
    where.value = wasGroup ? previous : state.me;
    chooseChat();
  }

  function chooseChat() {
    stopEditing();
    state.chatId = $("where").value;
    const group = groups().find((g) => g.groupId === state.chatId);
    $("my-id").textContent = state.me;
    $("chat-id").textContent = state.chatId;
    $("chat-title").textContent = group ? group.name : oaName();
    const kind = group ? (group.staff ? "staff group" : "group with customers") : "1:1 chat";
    $("chat-sub").textContent = `${kind} · you are ${personName(state.me)}`;
    $("greet").textContent = group ? `Invite ${oaName()} to this group` : `Add ${oaName()} as a friend`;
    const shop = currentShop();
    $("pay-form").hidden = !(shop ? shop.canSimulatePayment : state.config.canSimulatePayment);
    $("photo-form").hidden = !(shop && shop.canSendPhotos);
    $("group-hint").hidden = !group;
    $("join-group").hidden = !group;
    $("join-group").textContent = `${personName(state.me)} joins this group (as a new member)`;
    fillTries(group);
    render();
    // LINE shows a rich menu only in the 1:1 chat with the bot.
    void state.richMenu.show(state.me, state.chatId, !group);
  }

  function fillTries(group) {
    const mention = `@${state.config.botName}`;
    // The Thai ones are the words docs/thai.md lists, as a shop would type them.
    const tries = !group
      ? ["qr 150", "คิวอาร์ 150", "history", "ยอด", "ยอดเมื่อวาน", "เช็คยอด 150", "โทเคน", "help", "id", "โอนแล้วค่ะ"]
      : group.staff
        ? ["history", "ยอด", "เช็คสลิป เมื่อวาน", "qr 150", `${mention} help`, "hello everyone"]
        : ["qr 150", "จ่ายเงิน 150", `${mention} เมนู`, "history today", "ยอด", "โอนแล้วค่ะ"];
    const list = $("tries");
    list.textContent = "";
    for (const text of tries) {
      const item = el("li");
      const button = el("button", "", text);
      button.type = "button";
      button.addEventListener("click", () => void sendText(text, "typed"));
      item.appendChild(button);
      list.appendChild(item);
    }
  }

  function connect() {
    const status = $("connection");
    const source = new EventSource("/api/events");
    source.onopen = () => {
      status.dataset.state = "open";
      status.textContent = "connected";
      // Menus may have changed while the stream was down.
      void state.richMenu.refresh();
    };
    // A menu, the default or someone's link changed: ask again which menu this person sees.
    source.addEventListener("richmenu", () => void state.richMenu.refresh());
    source.onerror = () => {
      status.dataset.state = "closed";
      status.textContent = "reconnecting…";
    };
    source.onmessage = (event) => {
      let entry;
      try {
        entry = JSON.parse(event.data);
      } catch (error) {
        console.error("bad event", error);
        return;
      }
      if (state.seen.has(entry.seq)) return;
      state.seen.add(entry.seq);
      state.entries.push(entry);
      append(entry);
    };
  }

  async function start() {
    state.config = await (await fetch("/api/config")).json();
    state.shop = state.config.shops && state.config.shops[0] ? state.config.shops[0].id : "";
    state.richMenu = window.SliplineRichMenu.create({
      root: $("rich-menu"),
      input: $("text"),
      shop: () => state.shop,
      notice: addLocalNotice,
      onLayout: stickToBottom,
    });
    const who = $("who");
    state.me = people()[0] ? people()[0].userId : "";
    fillPeople();
    who.addEventListener("change", () => {
      state.me = who.value;
      fillChats();
    });
    $("where").addEventListener("change", chooseChat);
    // Several shops: pick whose OA to talk to; each is a LINE channel of its own, with its own chats.
    const shops = $("shop");
    for (const shop of state.config.shops || []) {
      const option = el("option", "", shop.name);
      option.value = shop.id;
      shops.appendChild(option);
    }
    $("shop-field").hidden = !(state.config.shops && state.config.shops.length > 1);
    shops.value = state.shop;
    shops.addEventListener("change", () => {
      state.shop = shops.value;
      fillPeople();
      fillChats();
    });
    $("greet").addEventListener("click", () => void post("/api/greet", { userId: state.me, chatId: state.chatId }));
    $("join-group").addEventListener("click", () => void post("/api/member-joined", { userId: state.me, chatId: state.chatId }));
    // The staff web app as this persona: the stand-in logs them in (as LINE Login would) and the app opens.
    $("open-staff-app").addEventListener("click", () => {
      void post("/api/staff-app", { userId: state.me }).then((answer) => {
        if (answer.url) window.open(answer.url, "_blank", "noopener");
        else addLocalNotice(answer.error || "The staff app is off for this shop.");
      });
    });
    // With the embedded sandbox: a customer's transfer lands in the shop's history, for "has it arrived?".
    $("pay-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const amount = Number($("pay-amount").value);
      if (amount > 0) void post("/api/simulate-payment", { amount, chatId: state.chatId });
    });
    // With the embedded sandbox: a slip photo as a person sends one, for the bot to read.
    $("photo-form").addEventListener("submit", (event) => {
      event.preventDefault();
      void post("/api/send-photo", { userId: state.me, chatId: state.chatId, photo: $("photo-kind").value });
    });
    $("composer").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("text");
      const text = input.value;
      input.value = "";
      if (state.editing) {
        const messageId = state.editing;
        stopEditing();
        if (text.trim()) void post("/api/edit", { userId: state.me, chatId: state.chatId, messageId, text });
        return;
      }
      void sendText(text, "typed");
    });
    $("text").addEventListener("keydown", (event) => {
      if (event.key === "Escape" && state.editing) {
        $("text").value = "";
        stopEditing();
      }
    });
    fillChats();
    connect();
    document.body.dataset.ready = "true";
  }

  void start();
})();
