/**
 * The presenter view of the projector page (issue 35): one question a
 * screen, for a room reading it off a wall. Part of the page's one inline
 * script (src/class/projector-page.ts puts it inside its function, so it
 * uses that script's t, el, svg, show, revealControls and the charts of
 * src/class/chart-script.ts), plain ES2019 like the rest.
 *
 * The address says what is shown (`?lab=ID&q=ID`, kept by a reload); the
 * arrow keys, Page Up / Page Down (what a presenter's clicker sends) and the
 * buttons move through every question of every lab in the catalogue's order.
 *
 * Sizes follow the screen (the root font is 1.25vw or 2.22vh, whichever is
 * smaller: 24 px at 1920x1080), so the same question fills a 1280x720
 * projector the same way. The chart is the overview's own
 * (src/class/chart-script.ts: the fitted axis, the arrows of who moved),
 * given the whole screen but the lines above it; who moved is also written
 * beside it, name by name.
 */
import type { MessageId } from '../core/messages/index.js';

/** The texts the presenter adds to the page's (the page puts them in its TEXTS). */
export const PRESENTER_TEXT_IDS = [
  'class.presenter.overview',
  'class.presenter.previous',
  'class.presenter.next',
  'class.presenter.position',
  'class.presenter.whoMoved',
  'class.presenter.nobodyMoved',
  'class.presenter.keys',
] as const satisfies readonly MessageId[];

export const PRESENTER_SCRIPT = String.raw`
  // The overview header's button: the lab on the wall (else the first anyone predicted), from its first question.
  document.getElementById('present').addEventListener('click', function () {
    if (!last || last.labs.length === 0) return;
    var lab = last.labs.find(function (l) { return l.id === focus; }) || last.labs.find(function (l) { return l.predicted > 0; }) || last.labs[0];
    if (lab.questions.length > 0) present(lab.id, lab.questions[0].id);
  });
  // Every question of every lab, in the catalogue's order: what the keys move through.
  function allQuestions(state) {
    var list = [];
    state.labs.forEach(function (lab) { lab.questions.forEach(function (q) { list.push({ lab: lab.id, q: q.id }); }); });
    return list;
  }
  function presentedIn(state) {
    var lab = state.labs.find(function (l) { return l.id === focus; });
    var q = lab && lab.questions.find(function (x) { return x.id === current; });
    return q ? { lab: lab, q: q } : null;
  }
  function moveBy(delta) {
    if (!last) return;
    var list = allQuestions(last);
    var at = list.findIndex(function (x) { return x.lab === focus && x.q === current; });
    var next = list[Math.max(0, Math.min(list.length - 1, at + delta))];
    if (next) present(next.lab, next.q);
  }
  document.addEventListener('keydown', function (e) {
    if (!current || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight' || e.key === 'PageDown' || e.key === 'ArrowDown') { e.preventDefault(); moveBy(1); }
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp' || e.key === 'ArrowUp') { e.preventDefault(); moveBy(-1); }
    else if (e.key === 'Escape') focusOn(focus);
  });
  // The chart is drawn for the pixels it has: a new window size draws it again.
  var resizing = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { if (last) { shown = ''; render(last); } }, 100);
  });

  // Who moved, name by name, as many as fit and "+N more" for the rest.
  function fillMoved(aside, lab, q) {
    var list = movers(lab, q);
    aside.replaceChildren(el('h4', '', t('class.presenter.whoMoved') + ' (' + list.length + ')'));
    if (list.length === 0) { aside.appendChild(el('p', 'nobody', t('class.presenter.nobodyMoved'))); return; }
    var ol = el('ol');
    list.forEach(function (m) {
      var li = el('li');
      li.appendChild(el('span', 'name', m.name));
      li.appendChild(document.createTextNode(' ' + show(m.from, q.unit) + ' → ' + show(m.to, q.unit)));
      ol.appendChild(li);
    });
    aside.appendChild(ol);
    var shownCount = list.length, more = null;
    while (aside.scrollHeight > aside.clientHeight + 1 && ol.children.length > (more ? 1 : 0)) {
      ol.removeChild(more ? ol.children[ol.children.length - 2] : ol.lastChild);
      shownCount--;
      if (!more) { more = el('li', 'more'); ol.appendChild(more); }
      more.textContent = t('class.presenter.more', { count: list.length - shownCount });
    }
  }

  // The screen: the lab and its counts, the buttons, the question, then the chart and who moved. Drawn after it is in the page (the chart needs its size).
  function presenter(state, lab, q) {
    var list = allQuestions(state);
    var at = list.findIndex(function (x) { return x.lab === lab.id && x.q === q.id; });
    var shownQ = Object.assign({}, q, { measured: lab.revealed ? q.measured : null });
    var section = el('section', 'present');
    section.setAttribute('data-lab', lab.id);
    section.setAttribute('data-question', q.id);
    var bar = el('div', 'pbar');
    var h = el('h2');
    h.appendChild(el('span', 'key', String(lab.key)));
    lab.title.split('\u0060').forEach(function (part, i) { h.appendChild(i % 2 ? el('code', 'inline', part) : document.createTextNode(part)); });
    bar.appendChild(h);
    var navBox = el('div', 'pnav');
    function button(text, cls, action, disabled) {
      var b = el('button', cls, text);
      b.type = 'button';
      b.disabled = !!disabled;
      b.addEventListener('click', action);
      navBox.appendChild(b);
      return b;
    }
    button(t('class.presenter.previous'), 'prev', function () { moveBy(-1); }, at <= 0);
    navBox.appendChild(el('span', 'pos', t('class.presenter.position', { n: at + 1, total: list.length })));
    button(t('class.presenter.next'), 'next', function () { moveBy(1); }, at >= list.length - 1);
    button(t('class.presenter.overview'), 'overview', function () { focusOn(lab.id); });
    navBox.title = t('class.presenter.keys');
    bar.appendChild(navBox);
    section.appendChild(bar);

    var counts = el('div', 'pcounts');
    var count = el('p', 'count', t('class.projector.predictions', { count: q.latest.answered }));
    count.setAttribute('data-count', String(q.latest.answered));
    counts.appendChild(count);
    counts.appendChild(el('p', 'stats', t('class.projector.stats', { predicted: lab.predicted, revised: lab.revised, ran: lab.ran })));
    revealControls(lab, counts, 'reveal');
    if (lab.revealed && !shownQ.measured) counts.appendChild(el('p', 'hiddennote', t('class.projector.notMeasured')));
    section.appendChild(counts);

    var prompt = el('h3', 'pprompt', q.prompt);
    prompt.appendChild(el('span', 'qid', q.id));
    section.appendChild(prompt);
    var body = el('div', 'pbody');
    var chart = el('div', 'chart');
    var aside = el('aside', 'moved');
    body.appendChild(chart);
    body.appendChild(aside);
    section.appendChild(body);
    var answered = q.first.answered + q.latest.answered > 0;
    return {
      section: section,
      draw: function () {
        if (!answered) chart.appendChild(el('p', 'hiddennote', t('class.projector.noPredictions')));
        else if (q.kind === 'number') drawNumber(chart, lab, shownQ);
        else drawLabels(chart, shownQ);
        fillMoved(aside, lab, q);
      },
    };
  }
`;
