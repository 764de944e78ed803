/**
 * The charts of the projector page (issue 35), one drawing for both of its
 * views: the overview's cards (src/class/projector-page.ts) and the presenter
 * view's screen (src/class/presenter-script.ts). Part of the page's one
 * inline script (projector-page.ts puts it inside its function, so it uses
 * that script's t, el, svg, show and numbers), plain ES2019 like the rest.
 *
 * A chart is drawn for the pixels its box has (drawNumber reads the box's
 * size, drawLabels its height), so the caller puts the box in the page and
 * gives it a size first; its text sizes are true pixels: labels one rem, the
 * measurement two.
 *
 * A number question's axis is fitted to the predictions and the measurement,
 * not the question's whole scale (-100..100 for a drop that everyone put
 * between 0 and 20 squeezes the room's spread into a few pixels); the whole
 * scale stays as a thin strip above it, the fitted part marked. Text lives in
 * the left gutter, in the measurement's own lane and under the axis; dots,
 * arrows, the band and the measured line only in the plot, so no mark ever
 * runs across a word. Who moved is drawn: one arrow from each learner's
 * first answer to their latest.
 */
import type { MessageId } from '../core/messages/index.js';

/** The texts the charts add to the page's (the page puts them in its TEXTS). */
export const CHART_TEXT_IDS = ['class.presenter.first', 'class.presenter.latest', 'class.presenter.moved', 'class.presenter.more'] as const satisfies readonly MessageId[];

export const CHART_SCRIPT = String.raw`
  var measure = document.createElement('canvas').getContext('2d');
  function textWidth(text, px, weight) {
    measure.font = (weight || 400) + ' ' + px + 'px ' + getComputedStyle(document.body).fontFamily;
    return measure.measureText(text).width;
  }
  function rem() { return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16; }

  // A round step (1, 2 or 5 times a power of ten) that cuts the span into about six.
  function niceStep(span) {
    var raw = span / 6, power = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * power >= raw) return steps[i] * power;
    return 10 * power;
  }

  // Labels: one row per outcome typed, the first predictions' bar hatched, the latest solid, each with its count in words.
  function bars(q) {
    var box = el('div', 'labels');
    // A Map, not an object: a label is the learner's text, and "__proto__" is a label like any other.
    var counts = new Map();
    function add(which, d) {
      if (!counts.has(d.value)) counts.set(d.value, { first: 0, latest: 0 });
      counts.get(d.value)[which] = d.learners;
    }
    q.latest.distribution.forEach(function (d) { add('latest', d); });
    q.first.distribution.forEach(function (d) { add('first', d); });
    var measured = q.measured ? String(q.measured.value) : null;
    if (measured !== null && !counts.has(measured)) counts.set(measured, { first: 0, latest: 0 });
    var most = 1;
    counts.forEach(function (c) { most = Math.max(most, c.first, c.latest); });
    var order = Array.from(counts.keys());
    order.forEach(function (label) {
      var row = el('div', 'lrow');
      row.setAttribute('data-label', label);
      var right = measured !== null && label === measured;
      var name = el('span', 'lname' + (right ? ' right' : ''), label);
      if (right) { name.appendChild(document.createTextNode(' ')); name.appendChild(el('span', 'tick', '✓')); }
      row.appendChild(name);
      var stack = el('div', 'lbars');
      [['first', t('class.projector.first')], ['latest', t('class.projector.latest')]].forEach(function (w) {
        var line = el('div', 'lbar ' + w[0]);
        var b = el('span', 'b');
        var n = counts.get(label)[w[0]];
        b.style.width = Math.max(0.3, (n / most) * 60) + '%';
        line.appendChild(b);
        line.appendChild(el('span', '', n + ' · ' + w[1]));
        stack.appendChild(line);
      });
      if (right) stack.appendChild(el('div', 'measured', t('class.projector.measured', { value: label })));
      row.appendChild(stack);
      box.appendChild(row);
    });
    return box;
  }

  // Learners whose latest answer to q differs from their first: who moved, and from where to where.
  function movers(lab, q) {
    return lab.learners.filter(function (l) {
      var a = l.first[q.id], b = l.latest[q.id];
      return a !== null && a !== undefined && b !== null && b !== undefined && a !== b;
    }).map(function (l) { return { name: l.name, from: l.first[q.id], to: l.latest[q.id] }; });
  }

  // The axis: the predictions, the measurement and its range, with a little room, in round steps, inside the question's own scale.
  function fitted(q) {
    var values = [];
    [q.first, q.latest].forEach(function (s) { s.distribution.forEach(function (d) { values.push(d.value); }); });
    var m = q.measured && typeof q.measured.value === 'number' ? q.measured : null;
    if (m) { values.push(m.value); if (m.range) values.push(m.range[0], m.range[1]); }
    var lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
    var span = hi - lo || Math.max(1, Math.abs(hi) / 5);
    var step = niceStep(span);
    lo = Math.floor(lo / step) * step;
    hi = Math.ceil(hi / step) * step;
    if (q.axis) { lo = Math.max(lo, q.axis.min); hi = Math.min(hi, q.axis.max); }
    if (lo === hi) { lo -= step; hi += step; }
    return { lo: lo, hi: hi, step: niceStep(hi - lo) };
  }

  // Dots stacked at their value without touching: each dot takes the lowest level free at its x.
  function stack(tally, x, r) {
    var levels = [], placed = [];
    tally.distribution.forEach(function (d) {
      for (var n = 0; n < d.learners; n++) {
        var cx = x(d.value), level = 0;
        while ((levels[level] || []).some(function (o) { return Math.abs(o - cx) < 2 * r + 1; })) level++;
        (levels[level] = levels[level] || []).push(cx);
        placed.push({ cx: cx, level: level });
      }
    });
    return { placed: placed, levels: Math.max(levels.length, 1) };
  }
  // Arrows on levels of their own where they would overlap.
  function arrowLevels(list, x, r) {
    var levels = [];
    return list.map(function (m) {
      var a = Math.min(x(m.from), x(m.to)) - r, b = Math.max(x(m.from), x(m.to)) + r, level = 0;
      while ((levels[level] || []).some(function (o) { return a < o[1] && o[0] < b; })) level++;
      (levels[level] = levels[level] || []).push([a, b]);
      return { from: x(m.from), to: x(m.to), level: level };
    });
  }

  function drawNumber(box, lab, q) {
    var R = rem(), W = box.clientWidth, H = box.clientHeight;
    var fit = fitted(q), lo = fit.lo, hi = fit.hi;
    var moved = movers(lab, q).filter(function (m) { return typeof m.from === 'number' && typeof m.to === 'number'; });
    var strip = q.axis && (lo > q.axis.min || hi < q.axis.max);
    var labels = {
      strip: strip ? t('class.projector.axis', { min: q.axis.min, max: q.axis.max }) : '',
      first: '○ ' + t('class.presenter.first') + ' (' + q.first.answered + ')',
      moved: '→ ' + t('class.presenter.moved', { count: moved.length }),
      latest: '● ' + t('class.presenter.latest') + ' (' + q.latest.answered + ')',
    };
    var gutter = 0;
    Object.keys(labels).forEach(function (k) { gutter = Math.max(gutter, textWidth(labels[k], R, 700)); });
    gutter += R;
    var ticks = [];
    for (var v = Math.ceil(lo / fit.step - 1e-9) * fit.step, i = 0; v <= hi + fit.step / 1000 && i < 40; v += fit.step, i++) ticks.push(Math.round(v * 1e6) / 1e6 + 0); // + 0: no "-0" under the axis
    var edge = Math.max.apply(null, ticks.map(function (v) { return textWidth(numbers.format(v), R) / 2; })) + 4;
    var left = gutter + edge, right = W - edge;
    var x = function (v) { return left + ((v - lo) / (hi - lo)) * (right - left); };

    // The largest dots for which every lane fits the height there is.
    var stripH = strip ? 1.5 * R : 0, labelH = 2.7 * R, axisH = 1.9 * R, r, first, latest, arrows, rowF, rowL, laneM, gap, pitch;
    function rowHeight(s) { return Math.max((s.levels - 1) * pitch + 2 * r + 4, 1.4 * R); }
    for (r = 0.75 * R; ; r -= 0.5) {
      first = stack(q.first, x, r); latest = stack(q.latest, x, r); arrows = arrowLevels(moved, x, r);
      gap = Math.max(5, r);
      pitch = 2 * r + 2;
      var arrowLevelsN = arrows.reduce(function (n, a) { return Math.max(n, a.level + 1); }, 0);
      rowF = rowHeight(first);
      rowL = rowHeight(latest);
      laneM = Math.max(arrowLevelsN * gap + gap, 1.4 * R);
      if (stripH + labelH + rowF + laneM + rowL + axisH <= H || r <= 3) break;
    }
    // Still too tall (a room piling onto one round number): each pile's dots overlap, a smaller step a level, rather than run past the box.
    while (stripH + labelH + rowF + laneM + rowL + axisH > H && pitch > 1) {
      pitch = Math.max(1, pitch - 0.5);
      rowF = rowHeight(first);
      rowL = rowHeight(latest);
    }
    var shapes = [], texts = [];
    function gutterText(text, yMid) { texts.push(svg('text', { x: gutter - R, y: (yMid + 0.35 * R).toFixed(1), 'text-anchor': 'end', 'font-size': R, 'font-weight': 700, fill: '#000' }, text)); }
    var y = 0;
    if (strip) {
      // The question's whole scale, thin, with the part the axis below shows drawn thick.
      var full = function (v) { return left + ((v - q.axis.min) / (q.axis.max - q.axis.min)) * (right - left); };
      var sy = y + stripH / 2;
      shapes.push(svg('line', { x1: left, y1: sy, x2: right, y2: sy, stroke: '#555', 'stroke-width': 2, 'class': 'scale' }));
      shapes.push(svg('rect', { x: full(lo).toFixed(1), y: (sy - 0.3 * R).toFixed(1), width: Math.max(3, full(hi) - full(lo)).toFixed(1), height: (0.6 * R).toFixed(1), fill: '#000', 'class': 'window' }));
      gutterText(labels.strip, sy);
      y += stripH;
    }
    var labelY = y;
    y += labelH;
    var top = y;
    function dotsRow(s, hollow, height, label) {
      var base = y + height;
      gutterText(label, y + height / 2);
      shapes.push(svg('line', { x1: left, y1: base, x2: right, y2: base, stroke: '#777', 'stroke-width': 1 }));
      s.placed.forEach(function (p) {
        shapes.push(svg('circle', { cx: p.cx.toFixed(1), cy: (base - r - 2 - p.level * pitch).toFixed(1), r: hollow ? r - 1 : r, fill: hollow ? '#fff' : '#000', stroke: '#000', 'stroke-width': hollow ? 2.5 : 1, 'class': hollow ? 'dot first' : 'dot latest' }));
      });
      y = base;
    }
    dotsRow(first, true, rowF, labels.first);
    gutterText(labels.moved, y + laneM / 2);
    arrows.forEach(function (a) {
      var ay = y + gap + a.level * gap, dir = a.to > a.from ? 1 : -1, head = Math.max(6, r * 0.8);
      shapes.push(svg('line', { x1: a.from.toFixed(1), y1: ay.toFixed(1), x2: (a.to - dir * head).toFixed(1), y2: ay.toFixed(1), stroke: '#000', 'stroke-width': 2.5, 'class': 'move' }));
      shapes.push(svg('polygon', { points: [a.to, ay, a.to - dir * head, ay - head / 2, a.to - dir * head, ay + head / 2].map(function (n) { return n.toFixed(1); }).join(' '), fill: '#000' }));
    });
    y += laneM;
    dotsRow(latest, false, rowL, labels.latest);
    var axisY = y + 2;
    shapes.push(svg('line', { x1: left, y1: axisY, x2: right, y2: axisY, stroke: '#000', 'stroke-width': 3 }));
    ticks.forEach(function (v) {
      var tx = x(v).toFixed(1);
      shapes.push(svg('line', { x1: tx, y1: axisY, x2: tx, y2: axisY + 0.3 * R, stroke: '#000', 'stroke-width': 3 }));
      texts.push(svg('text', { x: tx, y: (axisY + 1.45 * R).toFixed(1), 'text-anchor': 'middle', 'font-size': R, fill: '#000', 'class': 'tick' }, numbers.format(v)));
    });
    if (q.measured && typeof q.measured.value === 'number') {
      // The band and the line run from under the label to the axis, inside the plot; the label has its lane above them.
      var mx = x(q.measured.value);
      if (q.measured.range && q.measured.range[0] !== q.measured.range[1]) {
        shapes.unshift(svg('rect', { x: x(q.measured.range[0]).toFixed(1), y: top.toFixed(1), width: Math.max(2, x(q.measured.range[1]) - x(q.measured.range[0])).toFixed(1), height: (axisY - top).toFixed(1), fill: '#cfe0f5', 'class': 'band' }));
      }
      shapes.push(svg('line', { x1: mx.toFixed(1), y1: top.toFixed(1), x2: mx.toFixed(1), y2: axisY.toFixed(1), stroke: '#003a75', 'stroke-width': 5, 'stroke-dasharray': '12 6', 'class': 'measured-line' }));
      var said = t('class.projector.measured', { value: show(q.measured.value, q.unit) });
      var w = textWidth(said, 2 * R, 800), lx = Math.max(0, Math.min(W - w - 2, mx - w / 2));
      var label = svg('text', { x: lx.toFixed(1), y: (labelY + 2 * R).toFixed(1), 'font-size': 2 * R, 'font-weight': 800, fill: '#003a75', 'class': 'measured-label' }, said);
      label.setAttribute('data-measured', String(q.measured.value));
      texts.push(label);
    }
    var root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img' });
    root.appendChild(svg('title', {}, q.id + ': ' + t('class.projector.axis', { min: numbers.format(lo), max: numbers.format(hi) })));
    shapes.concat(texts).forEach(function (s) { root.appendChild(s); });
    box.replaceChildren(root);
  }

  // Labels: the bars above in a box of a given height; rows that do not fit give way (never the measured one) to a "+N more" line.
  function drawLabels(box, q) {
    box.replaceChildren(bars(q));
    var rows = Array.prototype.slice.call(box.querySelectorAll('.lrow'));
    var dropped = 0, more = null;
    while (box.scrollHeight > box.clientHeight + 1 && rows.length > 1) {
      var i = rows.length - 1;
      while (i > 0 && rows[i].querySelector('.measured')) i--;
      rows.splice(i, 1)[0].remove();
      dropped++;
      if (!more) { more = el('p', 'more'); box.firstChild.appendChild(more); }
      more.textContent = t('class.presenter.more', { count: dropped });
    }
  }
`;
