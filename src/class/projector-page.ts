/**
 * The projector page of `npm run class -- serve` (GET /): one static HTML
 * page, its CSS and script inline, nothing fetched from anywhere but the
 * class server's own /api/state and /api/reveal. It holds no data: the
 * script asks for the state (src/class/projector.ts) every 2 seconds and
 * draws it, so the page itself can be served to anyone without leaking a name.
 *
 * The token: the serve command prints `http://127.0.0.1:PORT/#token=TOKEN`.
 * A fragment never travels to the server, so the script reads it, keeps it in
 * sessionStorage (this tab only), and removes it from the address bar
 * (history.replaceState) before the room can read it off the screen; every
 * request sends it as `Authorization: Bearer <token>`.
 *
 * One lab at a time: a row of buttons under the title shows every lab or
 * only one (the address gets `?lab=ID`, so that a reload keeps it; the
 * server ignores the query), for an agenda that discusses one lab at a time.
 * One question a screen: `?lab=ID&q=ID` is the presenter view
 * (src/class/presenter-script.ts), moved with the arrow keys; the long page
 * stays as the overview, each question a card no taller than the window,
 * its chart the presenter's own (src/class/chart-script.ts).
 *
 * Readable on a projector: large type, black on white, and no colour as the
 * only signal (first predictions are hollow dots and outlined bars, the
 * latest filled ones, each row labelled in words; the measurement is a dashed
 * line with its value written beside it). Every learner's text is inserted
 * with textContent, never as HTML: a name like `<img src=x onerror=...>`
 * shows as those characters. The Content-Security-Policy backs that up: no
 * script but this one (allowed by its SHA-256, as CSP Level 2 defines hash
 * sources: https://www.w3.org/TR/CSP2/#script-src-hash-usage), no connection
 * but to the server that sent the page.
 */
import { createHash } from 'node:crypto';
import type { Lang } from '../core/lang.js';
import { CATALOGUES, type MessageId } from '../core/messages/index.js';
import { esc, page } from './html.js';
import { PROJECTOR_CSS } from './projector-style.js';
import { CHART_SCRIPT, CHART_TEXT_IDS } from './chart-script.js';
import { PRESENTER_SCRIPT, PRESENTER_TEXT_IDS } from './presenter-script.js';
import { PRESENTER_CSS } from './presenter-style.js';
import { t } from '../core/messages/index.js';

/** The texts the script needs, in the page's language (plural forms chosen in the browser by Intl.PluralRules). */
const TEXT_IDS = [
  'class.projector.noToken',
  'class.projector.badToken',
  'class.projector.offline',
  'class.projector.updated',
  'class.projector.journals',
  'class.projector.stats',
  'class.projector.predictions',
  'class.projector.hidden',
  'class.projector.revealed',
  'class.projector.reveal',
  'class.projector.hide',
  'class.projector.measured',
  'class.projector.notMeasured',
  'class.projector.first',
  'class.projector.latest',
  'class.projector.who',
  'class.projector.revisions',
  'class.projector.noPredictions',
  'class.projector.axis',
  ...CHART_TEXT_IDS,
  ...PRESENTER_TEXT_IDS,
  'class.projector.learner',
  'class.projector.allLabs',
  'class.why',
  'class.langName.en',
  'class.langName.es',
  'class.langName.other',
  'class.min',
  'class.median',
  'class.max',
] as const satisfies readonly MessageId[];

/**
 * The script, as plain ES2019 in a string: it runs in the projector's browser
 * as written, untouched by the kit's bundler. `TEXTS` and `LANG` are filled
 * in by projectorHtml.
 */
const SCRIPT = String.raw`
(function () {
  'use strict';
  var TEXTS = __TEXTS__;
  var LANG = __LANG__;
  var SVG = 'http://www.w3.org/2000/svg';
  var KEY = 'schema-breaks-projector-token';
  var plural = new Intl.PluralRules(LANG);
  var numbers = new Intl.NumberFormat(LANG, { maximumFractionDigits: 2, useGrouping: false });
  function t(id, values) {
    var m = TEXTS[id];
    values = values || {};
    if (typeof m !== 'string') m = (typeof values.count === 'number' && m[plural.select(values.count)]) || m.other;
    return m.replace(/\{(\w+)\}/g, function (whole, key) {
      if (!Object.prototype.hasOwnProperty.call(values, key)) return whole;
      return typeof values[key] === 'number' ? numbers.format(values[key]) : String(values[key]);
    });
  }
  function show(v, unit) { return typeof v === 'number' ? numbers.format(v) + (unit === '%' ? '%' : '') : String(v); }
  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The token: from the fragment once, then from this tab's sessionStorage; the address bar keeps no trace of it.
  var match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  var token = null;
  if (match) {
    try { token = decodeURIComponent(match[1]); } catch (e) { token = match[1]; }
    try { sessionStorage.setItem(KEY, token); } catch (e) { /* storage off: the token lives in this page only */ }
    history.replaceState(null, '', location.pathname + location.search);
  }
  if (!token) {
    try { token = sessionStorage.getItem(KEY); } catch (e) { /* storage off: only a token in the address works */ }
  }
  var statusLine = document.getElementById('status');
  var updatedLine = document.getElementById('updated');
  var main = document.getElementById('labs');
  function status(text, problem) {
    statusLine.textContent = text;
    statusLine.className = problem ? 'problem' : '';
  }

  function median(tally) {
    var all = [];
    tally.distribution.forEach(function (d) { for (var i = 0; i < d.learners; i++) all.push(d.value); });
    if (all.length === 0) return null;
    var mid = Math.floor(all.length / 2);
    return all.length % 2 ? all[mid] : Math.round(((all[mid - 1] + all[mid]) / 2) * 100) / 100;
  }

  function numberLine(label, tally) {
    if (tally.answered === 0) return label + ': –';
    var d = tally.distribution;
    return label + ': ' + t('class.min') + ' ' + numbers.format(d[0].value) + ' · ' + t('class.median') + ' ' + numbers.format(median(tally)) + ' · ' + t('class.max') + ' ' + numbers.format(d[d.length - 1].value);
  }

  // A question's card: its prompt, its counts, then its chart (drawn by drawCards once the card is in the page) and, for numbers, the spread in words.
  function question(lab, original, draws) {
    // The measurement only for a revealed lab, whatever the state carries.
    var q = Object.assign({}, original, { measured: lab.revealed ? original.measured : null });
    var charted = q.first.answered + q.latest.answered > 0;
    var card = el('div', 'q');
    card.setAttribute('data-question', q.id);
    var h = el('h3', '', q.prompt);
    h.appendChild(el('span', 'qid', q.id));
    card.appendChild(h);
    var count = el('p', 'count', t('class.projector.predictions', { count: q.latest.answered }));
    count.setAttribute('data-count', String(q.latest.answered));
    card.appendChild(count);
    // A chart says the measurement itself, in its own lane over its line or beside its label's bars; a line of text says it only when there is no chart.
    if (q.measured && !charted) {
      var m = el('p', 'measured', t('class.projector.measured', { value: show(q.measured.value, q.unit) }));
      m.setAttribute('data-measured', String(q.measured.value));
      card.appendChild(m);
    } else if (!q.measured) card.appendChild(el('p', 'hiddennote', lab.revealed ? t('class.projector.notMeasured') : t('class.projector.hidden')));
    if (!charted) return card;
    var chart = el('div', 'chart ' + q.kind);
    card.appendChild(chart);
    draws.push({ card: card, chart: chart, lab: lab, q: q });
    if (q.kind === 'number') {
      card.appendChild(el('p', 'numbers', numberLine(t('class.projector.first'), q.first)));
      card.appendChild(el('p', 'numbers', numberLine(t('class.projector.latest'), q.latest)));
    }
    return card;
  }

  // Each card, scrolled to, fits the window: its chart gets what the window leaves after the card's other lines (a number chart at most 16 rem; its dots shrink to fit).
  function drawCards(draws) {
    var R = rem(), room = innerHeight - R;
    var others = draws.map(function (d) { return d.card.getBoundingClientRect().height - d.chart.getBoundingClientRect().height; });
    draws.forEach(function (d, i) {
      var fit = Math.max(6 * R, room - others[i]);
      if (d.q.kind === 'number') {
        d.chart.style.height = Math.min(16 * R, fit) + 'px';
        drawNumber(d.chart, d.lab, d.q);
      } else {
        d.chart.style.maxHeight = fit + 'px';
        drawLabels(d.chart, d.q);
      }
    });
  }

  function answers(lab, learner, which) {
    return lab.questions.filter(function (q) { return learner.first[q.id] !== learner.latest[q.id]; })
      .map(function (q) { return q.id + ' ' + (learner[which][q.id] === null ? '–' : show(learner[which][q.id], q.unit)); }).join(' · ');
  }

  // The lab's state in words and the button that reveals or hides it (the overview's and the presenter's).
  function revealControls(lab, box, buttonClass) {
    box.appendChild(el('span', 'badge ' + (lab.revealed ? 'shown' : 'hidden'), lab.revealed ? '✓ ' + t('class.projector.revealed') : t('class.projector.hidden')));
    var button = el('button', buttonClass, lab.revealed ? t('class.projector.hide') : t('class.projector.reveal'));
    button.type = 'button';
    button.setAttribute('aria-pressed', lab.revealed ? 'true' : 'false');
    button.addEventListener('click', function () { toggle(lab.id, !lab.revealed, button); });
    box.appendChild(button);
  }

  function labSection(lab, draws) {
    var section = el('section', 'lab');
    section.setAttribute('data-lab', lab.id);
    var h = el('h2');
    h.appendChild(el('span', 'key', String(lab.key)));
    // Words in backticks in a title are code, as on the class report's page.
    lab.title.split('\u0060').forEach(function (part, i) { h.appendChild(i % 2 ? el('code', 'inline', part) : document.createTextNode(part)); });
    h.appendChild(el('code', '', lab.id));
    section.appendChild(h);
    section.appendChild(el('p', 'stats', t('class.projector.stats', { predicted: lab.predicted, revised: lab.revised, ran: lab.ran })));
    var reveal = el('div', 'reveal');
    revealControls(lab, reveal, '');
    section.appendChild(reveal);
    if (lab.predicted === 0) {
      section.appendChild(el('p', 'hiddennote', t('class.projector.noPredictions')));
      return section;
    }
    lab.questions.forEach(function (q) { section.appendChild(question(lab, q, draws)); });
    var revised = lab.learners.filter(function (l) { return l.revised; });
    if (revised.length > 0) {
      section.appendChild(el('h3', '', t('class.projector.revisions')));
      var table = el('table', 'revisions');
      var head = el('tr');
      [t('class.projector.learner'), t('class.projector.first'), t('class.projector.latest')].forEach(function (x) { head.appendChild(el('th', '', x)); });
      table.appendChild(head);
      revised.forEach(function (l) {
        var tr = el('tr');
        tr.appendChild(el('td', 'name', l.name));
        tr.appendChild(el('td', 'first', answers(lab, l, 'first')));
        tr.appendChild(el('td', 'latest', answers(lab, l, 'latest')));
        table.appendChild(tr);
      });
      section.appendChild(table);
    }
    if (lab.reasons.length > 0) {
      var why = el('div', 'why');
      why.appendChild(el('h3', '', t('class.why')));
      lab.reasons.forEach(function (group) {
        why.appendChild(el('p', 'who', t('class.langName.' + group.lang)));
        var list = el('ol');
        if (group.lang !== 'other') list.lang = group.lang;
        group.lines.slice(0, 8).forEach(function (line) {
          var li = el('li');
          li.appendChild(el('span', 'n', line.learners + '×'));
          li.appendChild(el('span', 'quote', line.text));
          list.appendChild(li);
        });
        why.appendChild(list);
      });
      section.appendChild(why);
    }
    var who = el('p', 'who', t('class.projector.who') + ': ');
    lab.learners.forEach(function (l, i) {
      if (i > 0) who.appendChild(document.createTextNode(', '));
      who.appendChild(el('span', 'name', l.name));
    });
    section.appendChild(who);
    return section;
  }

  // One lab on the wall at a time, if the instructor chose one (?lab=ID, kept by a reload); else every lab.
  // One question a screen (the presenter view) when the address also names a question of that lab (?lab=ID&q=ID).
  var params = new URLSearchParams(location.search);
  var focus = params.get('lab');
  var current = params.get('q');
  var nav = document.getElementById('focus');
  var last = null;
  function address() {
    return location.pathname + (focus ? '?lab=' + encodeURIComponent(focus) + (current ? '&q=' + encodeURIComponent(current) : '') : '');
  }
  function focusOn(lab) {
    focus = lab;
    current = null;
    history.replaceState(null, '', address());
    // The choice is part of what render() compares: a new one draws the page again.
    if (last) render(last);
  }
  function present(lab, q) {
    focus = lab;
    current = q;
    history.replaceState(null, '', address());
    if (last) render(last);
  }
__CHART__
__PRESENTER__
  function focusButton(text, lab, pressed) {
    var b = el('button', '', text);
    b.setAttribute('aria-pressed', pressed ? 'true' : 'false');
    if (lab) b.setAttribute('data-focus', lab);
    b.addEventListener('click', function () { focusOn(lab); });
    return b;
  }
  var shown = '';
  function render(state) {
    last = state;
    var key = JSON.stringify(Object.assign({}, state, { generatedAt: '', focus: focus, current: current }));
    if (key === shown) return;
    shown = key;
    var presented = current ? presentedIn(state) : null;
    document.documentElement.classList.toggle('presenting', presented !== null);
    if (presented) {
      var view = presenter(state, presented.lab, presented.q);
      main.replaceChildren(view.section);
      view.draw();
      return;
    }
    var one = state.labs.some(function (lab) { return lab.id === focus; });
    var buttons = [focusButton(t('class.projector.allLabs'), null, !one)];
    state.labs.forEach(function (lab) { buttons.push(focusButton(lab.key + ' ' + lab.id, lab.id, lab.id === focus)); });
    nav.replaceChildren.apply(nav, buttons);
    var labs = document.createDocumentFragment(), draws = [];
    state.labs.forEach(function (lab) { if (!one || lab.id === focus) labs.appendChild(labSection(lab, draws)); });
    main.replaceChildren(labs);
    drawCards(draws);
  }

  var timer = null;
  function poll() {
    clearTimeout(timer);
    if (!token) { status(t('class.projector.noToken'), true); return; }
    fetch('/api/state', { headers: { Authorization: 'Bearer ' + token }, cache: 'no-store' })
      .then(function (response) {
        if (response.status === 401) { status(t('class.projector.badToken'), true); return null; }
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (state) {
        if (!state) return;
        render(state);
        status(t('class.projector.journals', { count: state.learners }), false);
        updatedLine.textContent = t('class.projector.updated', { time: new Date().toLocaleTimeString(LANG) });
      })
      .catch(function () { status(t('class.projector.offline'), true); })
      .then(function () { timer = setTimeout(poll, 2000); });
  }
  function toggle(lab, revealed, button) {
    button.disabled = true;
    fetch('/api/reveal', { method: 'POST', headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' }, body: JSON.stringify({ lab: lab, revealed: revealed }) })
      .catch(function () { status(t('class.projector.offline'), true); })
      .then(function () { button.disabled = false; poll(); });
  }
  poll();
})();
`;

/** A value for an inline script: JSON, with '<' escaped so that no text can close the script element. */
function scriptValue(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The projector page in `lang`: no data in it, only the texts and the script that asks the server for the state. */
export function projectorHtml(lang: Lang): string {
  const texts = Object.fromEntries(TEXT_IDS.map((id) => [id, CATALOGUES[lang][id]]));
  const script = SCRIPT.replace('__CHART__', () => CHART_SCRIPT)
    .replace('__PRESENTER__', () => PRESENTER_SCRIPT)
    .replace('__TEXTS__', () => scriptValue(texts))
    .replace('__LANG__', () => scriptValue(lang));
  const body = `<header><h1>${esc(t('class.projector.title', lang))}</h1><p id="status" role="status" aria-live="polite"></p><p id="updated"></p><nav id="focus" aria-label="${esc(t('class.projector.focus', lang))}"></nav><button id="present" type="button">${esc(t('class.presenter.open', lang))}</button></header>
<main id="labs"></main>
<script>${script}</script>`;
  return page({
    lang,
    title: `${t('class.projector.title', lang)} · schema-breaks`,
    css: PROJECTOR_CSS + PRESENTER_CSS,
    body,
    // This very script (by its hash: no other inline script could run) and requests to the server that sent the page: nothing else.
    csp: `default-src 'none'; script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:`,
  });
}
