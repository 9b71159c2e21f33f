// The chat console page: picks who and where, sends what is typed or tapped, and renders the bot's messages
// (text, images, Flex bubbles and carousels, quick replies) from the console's event stream as LINE would.
// The rich menu under the input box is rich-menu.js (window.SliplineRichMenu), loaded before this file.
/* global document, window, fetch, EventSource, URL, setTimeout, clearTimeout, console */
"use strict";

(function main() {
  const SPACING = { none: 0, xs: 2, sm: 4, md: 8, lg: 12, xl: 16, xxl: 20 };
  const TEXT_SIZE = { xxs: 11, xs: 13, sm: 14, md: 16, lg: 19, xl: 22, xxl: 29, "3xl": 35, "4xl": 48, "5xl": 74 };
  const IMAGE_SIZE = { xxs: 40, xs: 60, sm: 80, md: 100, lg: 120, xl: 140, xxl: 160, "3xl": 180, "4xl": 200, "5xl": 220 };
  const BUBBLE_WIDTH = { nano: 120, micro: 160, deca: 220, hecto: 241, kilo: 260, mega: 300, giga: 500 };
  const BORDER_WIDTH = { none: 0, light: 0.5, normal: 1, medium: 2, "semi-bold": 3, bold: 4 };
  const RADIUS = { none: 0, xs: 2, sm: 4, md: 8, lg: 12, xl: 16, xxl: 20 };
  const BLOCK_PADDING = { header: "20px", body: "20px", footer: "10px" };
  const ALIGN = { start: "flex-start", center: "center", end: "flex-end" };
  const GRAVITY = { top: "flex-start", center: "center", bottom: "flex-end" };

  const state = {
    config: { botName: "slipline", people: [], groups: [], timeZone: "", canSimulatePayment: false },
    me: "",
    chatId: "",
    entries: [],
    seen: new Set(),
    typingTimer: undefined,
    richMenu: undefined,
  };

  const $ = (id) => document.getElementById(id);
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  /** A keyword from `table` in px, or the value itself when it is already px or %. */
  function length(value, table) {
    if (value === undefined || value === null) return undefined;
    if (table && Object.prototype.hasOwnProperty.call(table, value)) return `${table[value]}px`;
    if (/^-?\d+(\.\d+)?(px|%)$/.test(String(value))) return String(value);
    return undefined;
  }

  /** Only http(s) urls reach an <img> or a new tab. */
  function safeUrl(value) {
    try {
      const url = new URL(String(value), window.location.href);
      return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
    } catch {
      return undefined;
    }
  }

  // ---------------------------------------------------------------- actions

  async function post(path, body) {
    const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return response.json().catch(() => ({}));
  }

  function sendText(text, via) {
    if (!text || !text.trim()) return;
    return post("/api/send", { userId: state.me, chatId: state.chatId, text, via });
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

  function makeTappable(node, action) {
    if (!action) return;
    node.classList.add("tappable");
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      performAction(action);
    });
  }

  // ---------------------------------------------------------------- flex

  /** LINE's flex property: in a horizontal or baseline box children share the width (default 1). */
  function applyFlex(node, component, parentLayout) {
    const horizontal = parentLayout === "horizontal" || parentLayout === "baseline";
    const grow = component.flex ?? (horizontal ? 1 : 0);
    if (horizontal) node.style.flex = grow > 0 ? `${grow} 1 0px` : "0 0 auto";
    else node.style.flex = grow > 0 ? `${grow} 0 auto` : "0 0 auto";
  }

  function applyPosition(node, component) {
    if (component.position === "absolute") node.style.position = "absolute";
    for (const [key, css] of [["offsetTop", "top"], ["offsetBottom", "bottom"], ["offsetStart", "left"], ["offsetEnd", "right"]]) {
      const value = length(component[key], SPACING);
      if (value !== undefined) {
        if (component.position !== "absolute") node.style.position = "relative";
        node.style[css] = value;
      }
    }
  }

  function renderComponent(component, parentLayout) {
    if (!component || typeof component !== "object") return el("div");
    let node;
    switch (component.type) {
      case "box":
        node = renderBox(component, undefined);
        break;
      case "text":
        node = renderText(component);
        break;
      case "image":
        node = renderImage(component);
        break;
      case "icon":
        node = renderIcon(component);
        break;
      case "button":
        node = renderButton(component);
        break;
      case "separator":
        node = el("div", "flex-separator");
        if (parentLayout === "horizontal" || parentLayout === "baseline") node.style.width = "1px";
        else node.style.height = "1px";
        if (component.color) node.style.background = component.color;
        return node;
      case "filler":
        node = el("div", "flex-filler");
        break;
      default:
        node = el("div", "unsupported", `[${component.type}]`);
    }
    if (component.type !== "icon") applyFlex(node, component, parentLayout);
    applyPosition(node, component);
    if (component.type !== "button") makeTappable(node, component.action);
    if (parentLayout === "horizontal" && component.gravity && GRAVITY[component.gravity]) node.style.alignSelf = GRAVITY[component.gravity];
    return node;
  }

  function renderBox(box, defaultPadding) {
    const node = el("div", "flex-box");
    node.dataset.layout = box.layout;
    node.style.flexDirection = box.layout === "vertical" ? "column" : "row";
    if (box.layout === "baseline") node.style.alignItems = "baseline";
    if (box.backgroundColor) node.style.backgroundColor = box.backgroundColor;
    if (box.background && box.background.type === "linearGradient") {
      const stops = [box.background.startColor, box.background.centerColor, box.background.endColor].filter(Boolean);
      node.style.backgroundImage = `linear-gradient(${box.background.angle || "0deg"}, ${stops.join(", ")})`;
    }
    const border = length(box.borderWidth, BORDER_WIDTH);
    if (border !== undefined || box.borderColor) {
      node.style.borderStyle = "solid";
      node.style.borderWidth = border ?? "1px";
      node.style.borderColor = box.borderColor || "#000000";
    }
    const radius = length(box.cornerRadius, RADIUS);
    if (radius !== undefined) node.style.borderRadius = radius;
    for (const key of ["width", "maxWidth", "height", "maxHeight"]) {
      const value = length(box[key], undefined);
      if (value !== undefined) node.style[key] = value;
    }
    const all = length(box.paddingAll, SPACING) ?? defaultPadding;
    if (all !== undefined) node.style.padding = all;
    for (const [key, css] of [["paddingTop", "paddingTop"], ["paddingBottom", "paddingBottom"], ["paddingStart", "paddingLeft"], ["paddingEnd", "paddingRight"]]) {
      const value = length(box[key], SPACING);
      if (value !== undefined) node.style[css] = value;
    }
    if (box.justifyContent) node.style.justifyContent = box.justifyContent;
    if (box.alignItems) node.style.alignItems = box.alignItems;
    const horizontal = box.layout !== "vertical";
    (Array.isArray(box.contents) ? box.contents : []).forEach((child, index) => {
      const childNode = renderComponent(child, box.layout);
      // A child's own margin wins over the box's spacing; LINE ignores both before the first child.
      const gap = index === 0 ? undefined : length(child && child.margin, SPACING) ?? length(box.spacing, SPACING);
      if (gap !== undefined && !(child && child.position === "absolute")) {
        if (horizontal) childNode.style.marginLeft = gap;
        else childNode.style.marginTop = gap;
      }
      node.appendChild(childNode);
    });
    makeTappable(node, box.action);
    return node;
  }

  function styleText(node, spec) {
    const size = length(spec.size, TEXT_SIZE);
    if (size !== undefined) node.style.fontSize = size;
    if (spec.color) node.style.color = spec.color;
    if (spec.weight === "bold") node.style.fontWeight = "bold";
    if (spec.style === "italic") node.style.fontStyle = "italic";
    if (spec.decoration && spec.decoration !== "none") node.style.textDecoration = spec.decoration;
  }

  function renderText(text) {
    const node = el("div", `flex-text ${text.wrap ? "wrap" : "nowrap"}`);
    node.style.fontSize = `${TEXT_SIZE.md}px`;
    node.style.color = "#111111";
    styleText(node, text);
    if (text.align) node.style.textAlign = { start: "left", center: "center", end: "right" }[text.align] || "left";
    if (text.lineSpacing) node.style.lineHeight = `calc(1.4em + ${text.lineSpacing})`;
    if (text.wrap && text.maxLines > 0) {
      node.style.display = "-webkit-box";
      node.style.webkitBoxOrient = "vertical";
      node.style.webkitLineClamp = String(text.maxLines);
      node.style.overflow = "hidden";
    }
    if (Array.isArray(text.contents) && text.contents.length > 0) {
      for (const span of text.contents) {
        const spanNode = el("span", "flex-span", span.text ?? "");
        styleText(spanNode, span);
        node.appendChild(spanNode);
      }
    } else {
      node.textContent = text.text ?? "";
    }
    return node;
  }

  function ratioOf(value) {
    const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(String(value || "1:1"));
    return match ? `${match[1]} / ${match[2]}` : "1 / 1";
  }

  function renderImage(image) {
    const outer = el("div", "flex-image-cell");
    outer.style.display = "flex";
    outer.style.justifyContent = ALIGN[image.align || "center"];
    const frame = el("div", "flex-image");
    const size = image.size === "full" ? "100%" : length(image.size ?? "md", IMAGE_SIZE) ?? "100px";
    frame.style.width = size;
    frame.style.maxWidth = "100%";
    frame.style.aspectRatio = ratioOf(image.aspectRatio);
    if (image.backgroundColor) frame.style.backgroundColor = image.backgroundColor;
    const img = el("img");
    img.alt = "";
    img.style.objectFit = image.aspectMode === "cover" ? "cover" : "contain";
    const url = safeUrl(image.url);
    if (url) img.src = url;
    img.addEventListener("load", stickToBottom);
    frame.appendChild(img);
    outer.appendChild(frame);
    return outer;
  }

  function renderIcon(icon) {
    const node = el("span", "flex-icon");
    const height = length(icon.size ?? "md", TEXT_SIZE) ?? "16px";
    const [w, h] = ratioOf(icon.aspectRatio).split(" / ").map(Number);
    node.style.height = height;
    node.style.width = `calc(${height} * ${w / h})`;
    const url = safeUrl(icon.url);
    if (url) node.style.backgroundImage = `url("${url.replace(/"/g, "%22")}")`;
    if (icon.margin) node.style.marginLeft = length(icon.margin, SPACING) ?? "0";
    return node;
  }

  function renderButton(button) {
    const style = button.style || "link";
    const node = el("button", `flex-button ${style}`);
    node.type = "button";
    node.style.height = button.height === "sm" ? "40px" : "52px";
    if (button.color) {
      if (style === "link") node.style.color = button.color;
      else node.style.backgroundColor = button.color;
    }
    node.appendChild(el("span", "", (button.action && button.action.label) || ""));
    node.addEventListener("click", () => performAction(button.action));
    return node;
  }

  function renderBubble(bubble) {
    const node = el("div", "flex-bubble");
    node.style.width = `${BUBBLE_WIDTH[bubble.size] ?? BUBBLE_WIDTH.mega}px`;
    node.style.maxWidth = "100%";
    if (bubble.direction === "rtl") node.style.direction = "rtl";
    const styles = bubble.styles || {};
    let first = true;
    for (const block of ["header", "hero", "body", "footer"]) {
      const content = bubble[block];
      if (!content) continue;
      const blockStyle = styles[block] || {};
      const blockNode = el("div", `flex-block flex-${block}`);
      if (blockStyle.backgroundColor) blockNode.style.backgroundColor = blockStyle.backgroundColor;
      if (blockStyle.separator && !first) blockNode.style.borderTop = `1px solid ${blockStyle.separatorColor || "#e5e5e5"}`;
      if (block === "body") blockNode.style.flex = "1 0 auto";
      const inner = block === "hero"
        ? (content.type === "box" ? renderBox(content, undefined) : renderComponent(content, "vertical"))
        : renderBox(content, BLOCK_PADDING[block]);
      inner.style.flex = "1 0 auto";
      blockNode.appendChild(inner);
      node.appendChild(blockNode);
      first = false;
    }
    makeTappable(node, bubble.action);
    return node;
  }

  function renderFlex(message) {
    const wrapper = el("div", "flex-message");
    wrapper.dataset.kind = "flex";
    wrapper.title = message.altText || "";
    const contents = message.contents || {};
    if (contents.type === "carousel") {
      const carousel = el("div", "flex-carousel");
      for (const bubble of contents.contents || []) carousel.appendChild(renderBubble(bubble));
      carousel.style.alignItems = "stretch";
      wrapper.appendChild(carousel);
    } else {
      wrapper.appendChild(renderBubble(contents));
    }
    return wrapper;
  }

  // ---------------------------------------------------------------- messages

  function renderMessage(message) {
    switch (message.type) {
      case "text":
      case "textV2": {
        const node = el("div", "bubble-text", message.text);
        node.dataset.kind = "text";
        return node;
      }
      case "image": {
        const link = el("a", "image-msg");
        link.dataset.kind = "image";
        const original = safeUrl(message.originalContentUrl);
        if (original) {
          link.href = original;
          link.target = "_blank";
          link.rel = "noopener";
        }
        const img = el("img");
        img.alt = "image";
        const preview = safeUrl(message.previewImageUrl) ?? original;
        if (preview) img.src = preview;
        img.addEventListener("load", stickToBottom);
        link.appendChild(img);
        return link;
      }
      case "flex":
        return renderFlex(message);
      case "sticker": {
        const node = el("div", "unsupported", "[sticker]");
        node.dataset.kind = "sticker";
        return node;
      }
      default: {
        const node = el("div", "unsupported", `[${message.type} message]`);
        node.dataset.kind = message.type;
        return node;
      }
    }
  }

  function personName(userId) {
    const person = state.config.people.find((p) => p.userId === userId);
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
        stack.appendChild(bubble);
        stack.appendChild(el("div", "meta", timeOf(entry.at)));
        row.appendChild(stack);
        return row;
      }
      case "bot": {
        const row = el("div", "msg bot");
        row.dataset.seq = String(entry.seq);
        row.appendChild(el("span", "avatar bot-avatar", state.config.botName.slice(0, 1).toUpperCase()));
        const stack = el("div", "stack");
        stack.appendChild(el("div", "who", state.config.botName));
        for (const message of entry.messages) stack.appendChild(renderMessage(message));
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
    return entry.chatId === state.chatId || (entry.type === "rejected" && !entry.chatId);
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
    renderQuickReplies(last && last.type === "bot" ? last.messages[last.messages.length - 1] : undefined);
    renderTyping(last && last.type === "loading" ? last : undefined);
    stickToBottom();
  }

  /** The newest message stays in view, also when an image above it finishes loading. */
  function stickToBottom() {
    const box = $("messages");
    box.scrollTop = box.scrollHeight;
  }

  function renderQuickReplies(message) {
    const bar = $("quick-replies");
    bar.textContent = "";
    const items = message && message.quickReply && Array.isArray(message.quickReply.items) ? message.quickReply.items : [];
    bar.hidden = items.length === 0;
    for (const item of items) {
      const action = item.action || {};
      const chip = el("button", "chip", action.label || action.text || "");
      chip.type = "button";
      chip.addEventListener("click", () => performAction(action));
      bar.appendChild(chip);
    }
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

  function fillChats() {
    const where = $("where");
    const previous = where.value;
    where.textContent = "";
    const direct = el("option", "", `1:1 chat with ${state.config.botName}`);
    direct.value = state.me;
    where.appendChild(direct);
    for (const group of state.config.groups) {
      const option = el("option", "", group.name);
      option.value = group.groupId;
      where.appendChild(option);
    }
    // Switching person keeps a group chat; a 1:1 chat becomes the new person's own.
    const wasGroup = state.config.groups.some((g) => g.groupId === previous);
    where.value = wasGroup ? previous : state.me;
    chooseChat();
  }

  function chooseChat() {
    state.chatId = $("where").value;
    const group = state.config.groups.find((g) => g.groupId === state.chatId);
    $("my-id").textContent = state.me;
    $("chat-id").textContent = state.chatId;
    $("chat-title").textContent = group ? group.name : state.config.botName;
    const kind = group ? (group.staff ? "staff group" : "group with customers") : "1:1 chat";
    $("chat-sub").textContent = `${kind} · you are ${personName(state.me)}`;
    $("greet").textContent = group ? `Invite ${state.config.botName} to this group` : `Add ${state.config.botName} as a friend`;
    $("group-hint").hidden = !group;
    fillTries(group);
    render();
    // LINE shows a rich menu only in the 1:1 chat with the bot.
    void state.richMenu.show(state.me, state.chatId, !group);
  }

  function fillTries(group) {
    const mention = `@${state.config.botName}`;
    const tries = !group
      ? ["qr 150", "history", "ยอด", "balance", "help", "id", "โอนแล้วค่ะ"]
      : group.staff
        ? ["history", "ยอด", "qr 150", `${mention} help`, "hello everyone"]
        : ["qr 150", `${mention} เมนู`, "history today", "ยอด", "โอนแล้วค่ะ"];
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
    state.richMenu = window.SliplineRichMenu.create({
      root: $("rich-menu"),
      input: $("text"),
      notice: addLocalNotice,
      onLayout: stickToBottom,
      safeUrl,
    });
    const who = $("who");
    for (const person of state.config.people) {
      const option = el("option", "", person.name);
      option.value = person.userId;
      who.appendChild(option);
    }
    state.me = state.config.people[0] ? state.config.people[0].userId : "";
    who.value = state.me;
    who.addEventListener("change", () => {
      state.me = who.value;
      fillChats();
    });
    $("where").addEventListener("change", chooseChat);
    $("greet").addEventListener("click", () => void post("/api/greet", { userId: state.me, chatId: state.chatId }));
    // With the embedded sandbox: a customer's transfer lands in the shop's history, for "has it arrived?".
    $("pay-form").hidden = !state.config.canSimulatePayment;
    $("pay-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const amount = Number($("pay-amount").value);
      if (amount > 0) void post("/api/simulate-payment", { amount, chatId: state.chatId });
    });
    $("composer").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("text");
      const text = input.value;
      input.value = "";
      void sendText(text, "typed");
    });
    fillChats();
    connect();
    document.body.dataset.ready = "true";
  }

  void start();
})();
