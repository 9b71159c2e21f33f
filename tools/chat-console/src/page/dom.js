// The small DOM helpers the console page's scripts share (window.SliplineDom): loaded first, before
// flex.js, rich-menu.js and page.js.
/* global document, window, URL */
"use strict";

window.SliplineDom = (function domModule() {
  /** A new element with an optional class and text. */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
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

  return { el, safeUrl };
})();
