// The rich menu under the input box, as the LINE app shows it in a 1:1 chat with the bot: the chat bar (its
// text opens and closes the menu), the menu's image scaled to the column, and its tap areas as transparent
// buttons over the image. page.js creates one and tells it who is talking where; it asks the console which
// menu that person sees (GET /api/rich-menu) and asks again whenever the event stream says menus changed.
// Loaded after dom.js (window.SliplineDom) and before page.js.
/* global window, fetch */
"use strict";

window.SliplineRichMenu = (function richMenuModule() {
  const { el, safeUrl } = window.SliplineDom;

  const percent = (part, whole) => `${(part / whole) * 100}%`;

  /** What a screen reader says for an area: the action's label, else the text it shows or sends. */
  function accessibleName(action, index) {
    const name = action.label || action.displayText || action.text;
    if (name) return name;
    if (action.type === "uri" && action.uri) return `Open ${action.uri}`;
    return `Menu area ${index + 1}`;
  }

  /**
   * options: root (the element to fill), input (the message box), notice(text) for a note in the chat,
   * onLayout() after the menu's height changed.
   */
  function create(options) {
    const { root, input, notice, onLayout } = options;
    const state = { userId: "", chatId: "", direct: false, menu: null, open: false, fresh: true, request: 0 };

    function setOpen(open) {
      state.open = open;
      const bar = root.querySelector(".rich-menu-bar");
      const panel = root.querySelector(".rich-menu-panel");
      if (bar) bar.setAttribute("aria-expanded", String(open));
      if (panel) panel.hidden = !open;
      root.dataset.open = String(open);
      onLayout();
    }

    function draw() {
      const menu = state.menu;
      root.textContent = "";
      root.hidden = !menu;
      if (!menu) {
        delete root.dataset.richMenuId;
        delete root.dataset.source;
        onLayout();
        return;
      }
      root.dataset.richMenuId = menu.richMenuId;
      root.dataset.source = menu.source;
      root.setAttribute("aria-label", `Rich menu: ${menu.chatBarText}`);

      const bar = el("button", "rich-menu-bar");
      bar.type = "button";
      bar.setAttribute("aria-controls", "rich-menu-panel");
      bar.appendChild(el("span", "rich-menu-bar-text", menu.chatBarText));
      const chevron = el("span", "rich-menu-chevron");
      chevron.setAttribute("aria-hidden", "true");
      bar.appendChild(chevron);
      bar.addEventListener("click", () => setOpen(!state.open));

      const panel = el("div", "rich-menu-panel");
      panel.id = "rich-menu-panel";
      panel.style.setProperty("--ratio", String(menu.size.width / menu.size.height));
      const image = el("img", "rich-menu-image");
      image.alt = "";
      image.src = menu.imageUrl;
      image.addEventListener("load", onLayout);
      panel.appendChild(image);
      menu.areas.forEach((area, index) => {
        const action = area.action || {};
        const bounds = area.bounds || {};
        const button = el("button", "rich-menu-area");
        button.type = "button";
        button.dataset.actionType = String(action.type);
        button.setAttribute("aria-label", accessibleName(action, index));
        button.style.left = percent(bounds.x, menu.size.width);
        button.style.top = percent(bounds.y, menu.size.height);
        button.style.width = percent(bounds.width, menu.size.width);
        button.style.height = percent(bounds.height, menu.size.height);
        button.addEventListener("click", () => void tap(menu, action, index));
        panel.appendChild(button);
      });
      root.append(bar, panel);
      setOpen(state.open);
    }

    /** Asks which menu the person sees now; redraws only when that changed, so focus stays on an area. */
    async function refresh() {
      const request = ++state.request;
      let menu = null;
      if (state.direct && state.userId) {
        try {
          const response = await fetch(`/api/rich-menu?userId=${encodeURIComponent(state.userId)}&shop=${encodeURIComponent(options.shop ? options.shop() : "")}`);
          menu = response.ok ? (await response.json()).richMenu : null;
        } catch {
          // The console is unreachable (it restarts): keep what is shown; the reconnect asks again.
          return;
        }
      }
      // A newer question (another person, another chat) was asked meanwhile: its answer wins.
      if (request !== state.request) return;
      const previous = state.menu;
      if (menu && previous && !state.fresh && menu.richMenuId === previous.richMenuId && menu.source === previous.source) return;
      // A menu appearing starts open when its `selected` says so; a switch to another menu keeps it as it was.
      if (menu && (state.fresh || !previous)) state.open = menu.selected === true;
      state.fresh = false;
      state.menu = menu;
      draw();
    }

    /** What LINE does with a postback area's inputOption, before the bot hears of the tap. */
    function applyInputOption(action) {
      switch (action.inputOption) {
        case "openKeyboard":
          setOpen(false);
          if (typeof action.fillInText === "string") input.value = action.fillInText;
          input.focus();
          break;
        case "openVoice":
          // No microphone in the console: the keyboard stands in for it.
          setOpen(false);
          input.focus();
          break;
        case "closeRichMenu":
          setOpen(false);
          break;
        case "openRichMenu":
          setOpen(true);
          break;
        default:
          break;
      }
    }

    async function tap(menu, action, index) {
      switch (action.type) {
        case "uri": {
          const url = safeUrl(action.uri);
          if (url) window.open(url, "_blank", "noopener");
          else notice(`This menu area opens ${action.uri}, which only the LINE app can open.`);
          return;
        }
        case "postback":
          applyInputOption(action);
          break;
        case "message":
        case "richmenuswitch":
          break;
        default:
          notice(`The console does not run "${action.type}" menu areas.`);
          return;
      }
      const response = await fetch("/api/rich-menu/tap", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userId: state.userId, chatId: state.chatId, richMenuId: menu.richMenuId, area: index, shop: options.shop ? options.shop() : "" }),
      });
      if (response.status === 409) notice("That menu was replaced before the tap reached the bot; here is the current one.");
      // The switch's own change event redraws the menu too; asking now does not wait for it.
      if (response.status === 409 || action.type === "richmenuswitch") await refresh();
    }

    return {
      /** The person and chat now shown; a rich menu appears only in their 1:1 chat with the bot. */
      show(userId, chatId, direct) {
        if (userId !== state.userId || direct !== state.direct) state.fresh = true;
        state.userId = userId;
        state.chatId = chatId;
        state.direct = direct;
        return refresh();
      },
      refresh,
    };
  }

  return { create };
})();
