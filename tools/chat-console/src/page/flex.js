// The LINE message renderer of the chat console (window.SliplineFlex): turns the bot's messages (text,
// images, Flex bubbles and carousels) and its quick replies into DOM as the LINE app shows them. page.js
// creates one and says what a tap does (onAction) and what to do when an image has loaded (onLayout).
// Loaded after dom.js (window.SliplineDom) and before page.js.
/* global window */
"use strict";

window.SliplineFlex = (function flexModule() {
  const { el, safeUrl } = window.SliplineDom;

  const SPACING = { none: 0, xs: 2, sm: 4, md: 8, lg: 12, xl: 16, xxl: 20 };
  const TEXT_SIZE = { xxs: 11, xs: 13, sm: 14, md: 16, lg: 19, xl: 22, xxl: 29, "3xl": 35, "4xl": 48, "5xl": 74 };
  const IMAGE_SIZE = { xxs: 40, xs: 60, sm: 80, md: 100, lg: 120, xl: 140, xxl: 160, "3xl": 180, "4xl": 200, "5xl": 220 };
  const BUBBLE_WIDTH = { nano: 120, micro: 160, deca: 220, hecto: 241, kilo: 260, mega: 300, giga: 500 };
  const BORDER_WIDTH = { none: 0, light: 0.5, normal: 1, medium: 2, "semi-bold": 3, bold: 4 };
  const RADIUS = { none: 0, xs: 2, sm: 4, md: 8, lg: 12, xl: 16, xxl: 20 };
  const BLOCK_PADDING = { header: "20px", body: "20px", footer: "10px" };
  const ALIGN = { start: "flex-start", center: "center", end: "flex-end" };
  const GRAVITY = { top: "flex-start", center: "center", bottom: "flex-end" };

  /** A keyword from `table` in px, or the value itself when it is already px or %. */
  function length(value, table) {
    if (value === undefined || value === null) return undefined;
    if (table && Object.prototype.hasOwnProperty.call(table, value)) return `${table[value]}px`;
    if (/^-?\d+(\.\d+)?(px|%)$/.test(String(value))) return String(value);
    return undefined;
  }

  /** LINE's flex property: in a horizontal or baseline box children share the width (default 1). */
  function applyFlex(node, component, parentLayout) {
    const horizontal = parentLayout === "horizontal" || parentLayout === "baseline";
    const grow = component.flex ?? (horizontal ? 1 : 0);
    if (horizontal) node.style.flex = grow > 0 ? `${grow} 1 0px` : "0 0 auto";
    else node.style.flex = grow > 0 ? `${grow} 0 auto` : "0 0 auto";
  }

  function applyPosition(node, component) {
    if (component.position === "absolute") node.style.position = "absolute";
    for (const [key, css] of [
      ["offsetTop", "top"],
      ["offsetBottom", "bottom"],
      ["offsetStart", "left"],
      ["offsetEnd", "right"],
    ]) {
      const value = length(component[key], SPACING);
      if (value !== undefined) {
        if (component.position !== "absolute") node.style.position = "relative";
        node.style[css] = value;
      }
    }
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

  /**
   * options: onAction(action) runs a tapped action (a button, a tappable component, a quick reply chip);
   * onLayout() after an image finished loading, since the message then grew.
   */
  function create(options) {
    const { onAction, onLayout } = options;

    function makeTappable(node, action) {
      if (!action) return;
      node.classList.add("tappable");
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        onAction(action);
      });
    }

    // ---------------------------------------------------------------- flex

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
      // A button runs its own action, and a box is made tappable by renderBox (which the bubble's blocks
      // also use): attaching it here as well would send a tapped row's command twice.
      if (component.type !== "button" && component.type !== "box") makeTappable(node, component.action);
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
      for (const [key, css] of [
        ["paddingTop", "paddingTop"],
        ["paddingBottom", "paddingBottom"],
        ["paddingStart", "paddingLeft"],
        ["paddingEnd", "paddingRight"],
      ]) {
        const value = length(box[key], SPACING);
        if (value !== undefined) node.style[css] = value;
      }
      if (box.justifyContent) node.style.justifyContent = box.justifyContent;
      if (box.alignItems) node.style.alignItems = box.alignItems;
      const horizontal = box.layout !== "vertical";
      (Array.isArray(box.contents) ? box.contents : []).forEach((child, index) => {
        const childNode = renderComponent(child, box.layout);
        // A child's own margin wins over the box's spacing; LINE ignores both before the first child.
        const gap = index === 0 ? undefined : (length(child && child.margin, SPACING) ?? length(box.spacing, SPACING));
        if (gap !== undefined && !(child && child.position === "absolute")) {
          if (horizontal) childNode.style.marginLeft = gap;
          else childNode.style.marginTop = gap;
        }
        node.appendChild(childNode);
      });
      makeTappable(node, box.action);
      return node;
    }

    function renderImage(image) {
      const outer = el("div", "flex-image-cell");
      outer.style.display = "flex";
      outer.style.justifyContent = ALIGN[image.align || "center"];
      const frame = el("div", "flex-image");
      const size = image.size === "full" ? "100%" : (length(image.size ?? "md", IMAGE_SIZE) ?? "100px");
      frame.style.width = size;
      frame.style.maxWidth = "100%";
      frame.style.aspectRatio = ratioOf(image.aspectRatio);
      if (image.backgroundColor) frame.style.backgroundColor = image.backgroundColor;
      const img = el("img");
      img.alt = "";
      img.style.objectFit = image.aspectMode === "cover" ? "cover" : "contain";
      const url = safeUrl(image.url);
      if (url) img.src = url;
      img.addEventListener("load", onLayout);
      frame.appendChild(img);
      outer.appendChild(frame);
      return outer;
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
      node.addEventListener("click", () => onAction(button.action));
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
        const inner = block === "hero" ? (content.type === "box" ? renderBox(content, undefined) : renderComponent(content, "vertical")) : renderBox(content, BLOCK_PADDING[block]);
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

    /** The text, with each http(s) address a link that opens in a new tab, as the LINE app makes them. */
    function appendLinked(node, text) {
      let at = 0;
      for (const match of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
        const url = safeUrl(match[0]);
        if (!url) continue;
        node.append(text.slice(at, match.index));
        const link = el("a", "text-link", match[0]);
        link.href = url;
        link.target = "_blank";
        link.rel = "noopener";
        node.append(link);
        at = match.index + match[0].length;
      }
      node.append(text.slice(at));
    }

    function renderMessage(message) {
      switch (message.type) {
        case "text":
        case "textV2": {
          const node = el("div", "bubble-text");
          node.dataset.kind = "text";
          appendLinked(node, message.text ?? "");
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
          img.addEventListener("load", onLayout);
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

    /** Fills `bar` with the chips of `message`'s quick reply, and hides it when there are none. */
    function renderQuickReplies(bar, message) {
      bar.textContent = "";
      const items = message && message.quickReply && Array.isArray(message.quickReply.items) ? message.quickReply.items : [];
      bar.hidden = items.length === 0;
      for (const item of items) {
        const action = item.action || {};
        const chip = el("button", "chip", action.label || action.text || "");
        chip.type = "button";
        chip.addEventListener("click", () => onAction(action));
        bar.appendChild(chip);
      }
    }

    return { renderMessage, renderQuickReplies };
  }

  return { create };
})();
