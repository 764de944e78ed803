/**
 * A layout checker for the kit's pages as chromium draws them (issue 35):
 * what a room cannot read is found in the page's own geometry, not guessed
 * from its source. Given a playwright Page it lists, in words:
 *
 * - text over text: two text boxes (the client rects of an element's own
 *   text nodes, line by line) of different elements intersecting;
 * - a drawn mark (an SVG line, rect, circle, ellipse, path, polyline or
 *   polygon, or any element with `data-mark`) running across a text box it
 *   does not wholly contain (a line is tested as a segment, its stroke
 *   included, not as its bounding box: an arrow's diagonal does not cross
 *   everything in its box);
 * - text outside its box: a text rect outside its block's box (overflow), an
 *   ancestor that clips (overflow other than visible), its SVG, or the page's
 *   left or top edge (nobody can scroll there);
 * - horizontal scroll: the document, or a scrolling element, wider than its
 *   view;
 * - contrast under 4.5:1 (WCAG 2 relative luminance,
 *   https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio) between a text's
 *   colour (an SVG text's fill) and what is under it: the ancestors'
 *   background colours composited, and for SVG text the filled shape
 *   under its middle;
 * - optionally, an element (the current question) not wholly in the viewport.
 *
 * The in-page part is plain JavaScript in a string, as the projector's own
 * script is: a function handed to page.evaluate would go through the test
 * transform, whose helpers do not exist in the page.
 *
 * Used by test/presenter.test.ts; test/layout.test.ts shows each check firing
 * on a small page that has its defect, and silent on one that has none.
 */
import type { Page } from 'playwright-core';

export interface LayoutOptions {
  /** A CSS selector for the element that must be wholly inside the viewport. */
  inView?: string;
  /** Below this, text fails contrast (WCAG AA for body text). */
  minContrast?: number;
  /** Overlaps up to this many pixels each way are font metrics, not a defect. */
  tolerance?: number;
}

const CHECKER = String.raw`
(function (options) {
  'use strict';
  var tol = options.tolerance;
  var problems = [];
  var MARKS = 'line, rect, circle, ellipse, path, polyline, polygon, [data-mark]';

  function visible(e) {
    for (var n = e; n && n.nodeType === 1; n = n.parentNode) {
      var s = getComputedStyle(n);
      if (s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse' || Number(s.opacity) === 0) return false;
    }
    return true;
  }
  function describe(e) {
    var tag = e.namespaceURI === 'http://www.w3.org/2000/svg' ? 'svg ' + e.localName : e.localName;
    return tag + (e.className && typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  }
  function ownText(e) {
    var s = '';
    e.childNodes.forEach(function (c) { if (c.nodeType === 3) s += c.nodeValue; });
    s = s.replace(/\s+/g, ' ').trim();
    return s.length > 40 ? s.slice(0, 39) + '…' : s;
  }
  function name(e) { var s = ownText(e); return (s ? "'" + s + "' " : '') + '(' + describe(e) + ')'; }
  function inside(a, b, slack) { return a.left >= b.left - slack && a.right <= b.right + slack && a.top >= b.top - slack && a.bottom <= b.bottom + slack; }
  function overlap(a, b) { return Math.min(a.right, b.right) - Math.max(a.left, b.left) > tol && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > tol; }

  // Every element's own text, as rects (one per line box a text node spans).
  var texts = [];
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (var node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.nodeValue.trim()) continue;
    var owner = node.parentNode;
    if (!owner || owner.closest('script, style, title, desc, noscript') || !visible(owner)) continue;
    var range = document.createRange();
    range.selectNodeContents(node);
    Array.prototype.forEach.call(range.getClientRects(), function (r) {
      if (r.width < 0.5 || r.height < 0.5) return;
      texts.push({ el: owner, rect: { left: r.left, right: r.right, top: r.top, bottom: r.bottom } });
    });
  }

  // (a) Text over text, from different elements.
  var seen = {};
  for (var i = 0; i < texts.length; i++) {
    for (var j = i + 1; j < texts.length; j++) {
      var a = texts[i], b = texts[j];
      if (a.el === b.el || !overlap(a.rect, b.rect)) continue;
      var key = name(a.el) + ' overlaps ' + name(b.el);
      if (!seen[key]) { seen[key] = 1; problems.push(key); }
    }
  }

  // (b) Marks across text they do not hold.
  function segmentHitsRect(x1, y1, x2, y2, r) {
    // Liang–Barsky clipping: does any part of the segment lie in the rect?
    var t0 = 0, t1 = 1, dx = x2 - x1, dy = y2 - y1;
    var p = [-dx, dx, -dy, dy], q = [x1 - r.left, r.right - x1, y1 - r.top, r.bottom - y1];
    for (var k = 0; k < 4; k++) {
      if (p[k] === 0) { if (q[k] < 0) return false; continue; }
      var t = q[k] / p[k];
      if (p[k] < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
    }
    return true;
  }
  document.querySelectorAll(MARKS).forEach(function (m) {
    if (!visible(m) || m.closest('defs, marker, clipPath, mask, pattern')) return;
    var svgShape = m.namespaceURI === 'http://www.w3.org/2000/svg' && !m.hasAttribute('data-mark');
    var s = getComputedStyle(m);
    if (svgShape && (s.fill === 'none' || Number(s.fillOpacity) === 0) && (s.stroke === 'none' || Number(s.strokeOpacity) === 0 || parseFloat(s.strokeWidth) === 0)) return;
    var ctm = svgShape && m.getScreenCTM ? m.getScreenCTM() : null;
    var half = svgShape && s.stroke !== 'none' ? (parseFloat(s.strokeWidth) || 0) * (ctm ? Math.abs(ctm.a) : 1) / 2 : 0;
    var box = m.getBoundingClientRect();
    box = { left: box.left - half, right: box.right + half, top: box.top - half, bottom: box.bottom + half };
    texts.forEach(function (tx) {
      if (m.contains(tx.el)) return;
      var r = tx.rect;
      var shrunk = { left: r.left + tol, right: r.right - tol, top: r.top + tol, bottom: r.bottom - tol };
      if (shrunk.left >= shrunk.right || shrunk.top >= shrunk.bottom) return;
      if (m.localName === 'line' && ctm) {
        var p1 = new DOMPoint(m.x1.baseVal.value, m.y1.baseVal.value).matrixTransform(ctm);
        var p2 = new DOMPoint(m.x2.baseVal.value, m.y2.baseVal.value).matrixTransform(ctm);
        var grown = { left: shrunk.left - half, right: shrunk.right + half, top: shrunk.top - half, bottom: shrunk.bottom + half };
        if (!segmentHitsRect(p1.x, p1.y, p2.x, p2.y, grown)) return;
      } else {
        if (!overlap(box, r)) return;
        // A box drawn round a text holds it: a badge, a highlighted cell.
        if (inside(r, box, 0)) return;
      }
      var key = name(m) + ' crosses ' + name(tx.el);
      if (!seen[key]) { seen[key] = 1; problems.push(key); }
    });
  });

  // (c) Text outside its box.
  function block(e) {
    for (var n = e; n && n !== document.body; n = n.parentElement) {
      if (n.namespaceURI === 'http://www.w3.org/2000/svg') return n.ownerSVGElement ? n.ownerSVGElement : n;
      var d = getComputedStyle(n).display;
      if (d !== 'inline' && d !== 'contents') return n;
    }
    return document.body;
  }
  texts.forEach(function (tx) {
    var r = tx.rect, fontSize = parseFloat(getComputedStyle(tx.el).fontSize) || 16;
    // Glyphs' ascent and descent may pass a tight line box by a fraction of the font size.
    var slackY = Math.max(tol, fontSize * 0.25);
    var b = block(tx.el), bb = b.getBoundingClientRect();
    var out = r.left < bb.left - tol || r.right > bb.right + tol || r.top < bb.top - slackY || r.bottom > bb.bottom + slackY;
    var key;
    if (out) key = name(tx.el) + ' runs outside its box (' + describe(b) + ')';
    for (var n = b.parentElement; !key && n && n !== document.documentElement; n = n.parentElement) {
      var st = getComputedStyle(n);
      if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
      var nb = n.getBoundingClientRect();
      if (r.left < nb.left - tol || r.right > nb.right + tol || r.top < nb.top - slackY || r.bottom > nb.bottom + slackY) key = name(tx.el) + ' is clipped by ' + describe(n);
    }
    if (!key && (r.left + scrollX < -tol || r.top + scrollY < -tol)) key = name(tx.el) + ' is off the page';
    if (key && !seen[key]) { seen[key] = 1; problems.push(key); }
  });

  // (d) Horizontal scroll.
  var root = document.scrollingElement || document.documentElement;
  if (root.scrollWidth > root.clientWidth) problems.push('the page scrolls sideways (' + root.scrollWidth + ' px wide in ' + root.clientWidth + ')');
  document.querySelectorAll('body *').forEach(function (e) {
    var st = getComputedStyle(e);
    if ((st.overflowX === 'auto' || st.overflowX === 'scroll') && e.scrollWidth > e.clientWidth + 1) problems.push(name(e) + ' scrolls sideways (' + e.scrollWidth + ' px in ' + e.clientWidth + ')');
  });

  // (e) Contrast.
  function rgba(c) {
    var m = /rgba?\(([^)]+)\)/.exec(c || '');
    if (!m) return null;
    var p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  function over(top, bottom) {
    var a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    return [0, 1, 2].map(function (k) { return (top[k] * top[3] + bottom[k] * bottom[3] * (1 - top[3])) / a; }).concat([a]);
  }
  function luminance(c) {
    var v = [0, 1, 2].map(function (k) { var x = c[k] / 255; return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  }
  function opacity(e) {
    var o = 1;
    for (var n = e; n && n.nodeType === 1; n = n.parentNode) o *= Number(getComputedStyle(n).opacity);
    return o;
  }
  function background(e) {
    // The colours under e, topmost first, down to the canvas (white, as chromium draws a page with none).
    var layers = [];
    for (var n = e; n && n.nodeType === 1; n = n.parentNode) {
      var c = rgba(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
    }
    var result = [255, 255, 255, 1];
    for (var k = layers.length - 1; k >= 0; k--) result = over(layers[k], result);
    return result;
  }
  var checked = new Set();
  texts.forEach(function (tx) {
    if (checked.has(tx.el)) return;
    checked.add(tx.el);
    var e = tx.el, st = getComputedStyle(e);
    var isSvg = e.namespaceURI === 'http://www.w3.org/2000/svg';
    var ink = rgba(isSvg ? st.fill : st.color);
    if (!ink) return;
    var bg;
    if (isSvg) {
      var svgRoot = e.ownerSVGElement;
      bg = background(svgRoot);
      var cx = (tx.rect.left + tx.rect.right) / 2, cy = (tx.rect.top + tx.rect.bottom) / 2;
      var under = document.elementsFromPoint(cx, cy).filter(function (u) { return u !== e && svgRoot.contains(u) && u !== svgRoot && u.localName !== 'text' && u.localName !== 'tspan'; });
      if (under.length > 0) {
        var f = rgba(getComputedStyle(under[0]).fill);
        if (f) bg = over([f[0], f[1], f[2], f[3] * Number(getComputedStyle(under[0]).fillOpacity)], bg);
      }
    } else bg = background(e);
    var fg = over([ink[0], ink[1], ink[2], ink[3] * opacity(e) * (isSvg ? Number(st.fillOpacity) : 1)], bg);
    var l1 = luminance(fg), l2 = luminance(bg);
    var ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    if (ratio < options.minContrast) problems.push(name(e) + ' has contrast ' + ratio.toFixed(2) + ':1 (under ' + options.minContrast + ':1)');
  });

  // (f) The element that must be wholly in view.
  if (options.inView) {
    var target = document.querySelector(options.inView);
    if (!target) problems.push(options.inView + ' is not on the page');
    else {
      var t = target.getBoundingClientRect();
      if (t.left < 0 || t.top < 0 || t.right > innerWidth + 0.5 || t.bottom > innerHeight + 0.5)
        problems.push(name(target) + ' is not wholly in the viewport (' + Math.round(t.left) + ',' + Math.round(t.top) + ' to ' + Math.round(t.right) + ',' + Math.round(t.bottom) + ' in ' + innerWidth + 'x' + innerHeight + ')');
    }
  }
  return problems;
})
`;

/** Everything wrong with the page's layout as drawn now, one sentence each; [] when nothing is. */
export async function layoutProblems(page: Page, options: LayoutOptions = {}): Promise<string[]> {
  const settings = { inView: options.inView ?? null, minContrast: options.minContrast ?? 4.5, tolerance: options.tolerance ?? 1.5 };
  return page.evaluate(`${CHECKER}(${JSON.stringify(settings)})`);
}
