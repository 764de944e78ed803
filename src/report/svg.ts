/**
 * Hand-written SVG for the HTML report: a bar chart of small multiples (one
 * panel per run, all on one scale) and a number line (a measurement and the
 * predictions made of it, on one axis). No library, no script: strings, every
 * text escaped. Each chart is `role="img"` with a <title> and a <desc>; the
 * page puts a data table with the same numbers after it.
 *
 * Colour is never the only cue: every bar carries a pattern and a direct
 * label, every prediction dot its learner's name and value.
 */

/** Escapes text for HTML and SVG, in content and in quoted attributes. */
export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Ids are built from our own words, never from untrusted text; still, keep them to [a-z0-9-]. */
export function safeId(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
}

import type { Texture as PatternKind } from '../lab/outcomes.js';
export type { PatternKind };

/** How a bar looks: its colour, a texture over it, and the ink the texture is drawn in. */
export interface Swatch {
  colour: string;
  pattern: PatternKind;
}

const FONT = "system-ui, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";

/** Black or white, whichever reads better on the colour (WCAG relative luminance). */
export function inkOn(colour: string): string {
  const hex = colour.replace('#', '');
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.22 ? '#000000' : '#ffffff';
}

function patternMarks(kind: PatternKind, ink: string): string {
  const s = `stroke="${ink}" stroke-opacity="0.55" stroke-width="2.5"`;
  switch (kind) {
    case 'solid':
      return '';
    case 'diagonal':
      return `<path d="M-3,3 l6,-6 M0,12 l12,-12 M9,15 l6,-6" ${s}/>`;
    case 'back-diagonal':
      return `<path d="M-3,9 l6,6 M0,0 l12,12 M9,-3 l6,6" ${s}/>`;
    case 'dots':
      return `<circle cx="3" cy="3" r="2" fill="${ink}" fill-opacity="0.6"/><circle cx="9" cy="9" r="2" fill="${ink}" fill-opacity="0.6"/>`;
    case 'cross':
      return `<path d="M-3,3 l6,-6 M0,12 l12,-12 M9,15 l6,-6 M-3,9 l6,6 M0,0 l12,12 M9,-3 l6,6" ${s}/>`;
    case 'horizontal':
      return `<path d="M0,3 h12 M0,9 h12" ${s}/>`;
    case 'vertical':
      return `<path d="M3,0 v12 M9,0 v12" ${s}/>`;
    case 'grid':
      return `<path d="M0,6 h12 M6,0 v12" ${s}/>`;
    case 'zigzag':
      return `<path d="M0,9 l3,-6 l3,6 l3,-6 l3,6" fill="none" ${s}/>`;
  }
}

/** A <pattern> filling with the swatch's colour and texture; ids are per chart, so charts never depend on each other. */
export function patternDef(id: string, swatch: Swatch): string {
  return `<pattern id="${id}" patternUnits="userSpaceOnUse" width="12" height="12"><rect width="12" height="12" fill="${swatch.colour}"/>${patternMarks(swatch.pattern, inkOn(swatch.colour))}</pattern>`;
}

/** Width of a text in px, roughly: good enough to lay out labels without a browser. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let units = 0;
  for (const ch of text) units += /[il.,:;'|!]/.test(ch) ? 0.32 : /[mwMW@%]/.test(ch) ? 0.95 : /[A-Z0-9]/.test(ch) ? 0.68 : ch === ' ' ? 0.33 : 0.6;
  return units * fontSize * (bold ? 1.1 : 1);
}

/** Round tick values covering [lo, hi], about `count` of them, at 1, 2 or 5 times a power of ten. */
export function niceTicks(lo: number, hi: number, count = 5, integer = false): number[] {
  if (!(hi > lo)) hi = lo + 1;
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  if (integer) step = step < 1 ? 1 : step === 2.5 ? 2 : step;
  const first = Math.floor(lo / step + 1e-9) * step;
  const last = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let v = first; v <= last + step / 2; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}

function svgOpen(id: string, width: number, height: number, title: string, desc: string): string {
  return (
    `<svg id="${id}" class="chart" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" ` +
    `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" font-size="20">` +
    `<title id="${id}-title">${esc(title)}</title><desc id="${id}-desc">${esc(desc)}</desc>`
  );
}

// ---------------------------------------------------------------------------
// Bar chart: small multiples
// ---------------------------------------------------------------------------

export interface Bar {
  /** What the bar is, for the data attributes and the legend: an outcome label, "0 retries", a run. */
  key: string;
  /** The text at the left of the bar. */
  label: string;
  value: number;
  /** The text at the end of the bar (default: the value). */
  text?: string;
  swatch: Swatch;
}

export interface Panel {
  title: string;
  bars: Bar[];
}

export interface BarChartOptions {
  id: string;
  title: string;
  desc: string;
  panels: Panel[];
  /** The scale's end (default: the largest value). */
  max?: number;
  /** Keys shown in a legend above the panels, with their swatches. */
  legend?: { key: string; label: string; swatch: Swatch }[];
  /** Formats the axis' tick values. */
  tick?: (value: number) => string;
  /** Counts: ticks at whole numbers only. */
  integer?: boolean;
  width?: number;
}

/**
 * Horizontal bars, one panel per run, one scale for all panels: the same
 * label sits at the same height in each panel, so the eye compares runs.
 */
export function barChart(options: BarChartOptions): string {
  const { id, panels } = options;
  const width = Math.max(600, options.width ?? 1000);
  const fontSize = 20;
  const allBars = panels.flatMap((p) => p.bars);
  const max = Math.max(options.max ?? 0, ...allBars.map((b) => b.value), 1e-9);
  const ticks = niceTicks(0, max, 5, options.integer ?? false);
  const scaleMax = ticks[ticks.length - 1]!;
  const labelCol = Math.min(320, Math.max(110, ...allBars.map((b) => textWidth(b.label, fontSize) + 20)));
  const valueCol = Math.max(70, ...allBars.map((b) => textWidth(b.text ?? String(b.value), fontSize, true) + 20));
  const x0 = labelCol;
  const plotWidth = width - labelCol - valueCol - 10;
  const x = (v: number) => x0 + (Math.max(0, v) / scaleMax) * plotWidth;

  const defs: string[] = [];
  const patternIds = new Map<string, string>();
  const patternFor = (swatch: Swatch) => {
    const key = `${swatch.colour}|${swatch.pattern}`;
    let pid = patternIds.get(key);
    if (!pid) {
      pid = `${id}-p${patternIds.size}`;
      patternIds.set(key, pid);
      defs.push(patternDef(pid, swatch));
    }
    return pid;
  };

  const body: string[] = [];
  let y = 12;

  // Legend: swatch and label, wrapped to the chart's width.
  if (options.legend && options.legend.length > 0) {
    let lx = 0;
    const rowHeight = 40;
    for (const item of options.legend) {
      const w = 34 + textWidth(item.label, fontSize) + 30;
      if (lx > 0 && lx + w > width) {
        lx = 0;
        y += rowHeight;
      }
      body.push(
        `<g class="legend-item" data-key="${esc(item.key)}"><rect x="${lx}" y="${y}" width="28" height="28" rx="3" fill="url(#${patternFor(item.swatch)})" stroke="#111" stroke-width="1.5" data-key="${esc(item.key)}" data-colour="${item.swatch.colour}"/>` +
          `<text x="${lx + 36}" y="${y + 21}" fill="#111">${esc(item.label)}</text></g>`,
      );
      lx += w;
    }
    y += rowHeight + 8;
  }

  const barHeight = 30;
  const rowHeight = 40;
  for (const panel of panels) {
    if (panel.title) {
      body.push(`<text x="0" y="${y + 24}" font-weight="700" font-size="22" fill="#111">${esc(panel.title)}</text>`);
      y += 36;
    }
    const panelTop = y;
    const panelHeight = panel.bars.length * rowHeight;
    for (const t of ticks) body.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${panelTop}" y2="${panelTop + panelHeight}" stroke="#c8c8c8" stroke-width="1"/>`);
    for (const bar of panel.bars) {
      const barY = y + (rowHeight - barHeight) / 2;
      const end = x(bar.value);
      body.push(`<text x="${x0 - 12}" y="${barY + 22}" text-anchor="end" fill="#111">${esc(bar.label)}</text>`);
      if (bar.value > 0) {
        body.push(
          `<rect class="bar" x="${x0}" y="${barY}" width="${Math.max(3, end - x0).toFixed(1)}" height="${barHeight}" fill="url(#${patternFor(bar.swatch)})" stroke="#111" stroke-width="1.5" data-key="${esc(bar.key)}" data-colour="${bar.swatch.colour}"/>`,
        );
      }
      body.push(`<text x="${Math.max(end, x0) + 10}" y="${barY + 22}" font-weight="700" fill="#111">${esc(bar.text ?? String(bar.value))}</text>`);
      y += rowHeight;
    }
    body.push(`<line x1="${x0}" x2="${x0}" y1="${panelTop - 4}" y2="${panelTop + panelHeight + 4}" stroke="#111" stroke-width="2"/>`);
    y += 14;
  }
  // One axis under all the panels.
  const axisY = y;
  body.push(`<line x1="${x0}" x2="${x(scaleMax)}" y1="${axisY}" y2="${axisY}" stroke="#111" stroke-width="2"/>`);
  for (const t of ticks) {
    body.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${axisY}" y2="${axisY + 8}" stroke="#111" stroke-width="2"/>`);
    body.push(`<text x="${x(t)}" y="${axisY + 30}" text-anchor="middle" font-size="18" fill="#111">${esc(options.tick ? options.tick(t) : String(t))}</text>`);
  }
  const height = axisY + 42;
  return `${svgOpen(id, width, height, options.title, options.desc)}<defs>${defs.join('')}</defs>${body.join('')}</svg>`;
}

// ---------------------------------------------------------------------------
// Number line: a measurement and the predictions of it, on one axis
// ---------------------------------------------------------------------------

export interface NumberLineOptions {
  id: string;
  title: string;
  desc: string;
  /** The axis covers at least [min, max] and every value. */
  min: number;
  max: number;
  measured: { value: number; label: string };
  predictions: { name: string; value: number; label: string }[];
  tick?: (value: number) => string;
  /** Whole numbers only: ticks at whole numbers (a count of 0 is not measured in tenths). */
  integer?: boolean;
  width?: number;
}

/**
 * A horizontal axis; the measurement is a thick black line across the whole
 * height with its label on top; each prediction is a dot on its own row (rows
 * are shared when labels do not collide), labelled with the learner's name and
 * value, and joined to the measurement by a dashed line: the miss, to scale.
 */
export function numberLine(options: NumberLineOptions): string {
  const width = Math.max(600, options.width ?? 1000);
  const fontSize = 20;
  const values = [options.measured.value, ...options.predictions.map((p) => p.value)];
  const ticks = niceTicks(Math.min(options.min, ...values), Math.max(options.max, ...values), 8, options.integer ?? false);
  const lo = ticks[0]!;
  const hi = ticks[ticks.length - 1]!;
  const left = 40;
  const right = width - 40;
  const x = (v: number) => left + ((v - lo) / (hi - lo || 1)) * (right - left);

  // Rows: a prediction takes the first row where it fits: its label (centred above its dot) and, when there
  // are few predictions, its dashed line to the measurement. With many, the lines go and the rows are shared more.
  const connect = options.predictions.length <= 8;
  const mx = x(options.measured.value);
  const rowEnds: [number, number][][] = [];
  const placed = [...options.predictions]
    .map((p, index) => ({ ...p, index }))
    .sort((a, b) => a.value - b.value || a.index - b.index)
    .map((p) => {
      const cx = x(p.value);
      const labelWidth = textWidth(p.label, fontSize, true);
      const anchor = cx - labelWidth / 2 < 2 ? 'start' : cx + labelWidth / 2 > width - 2 ? 'end' : 'middle';
      const labelX = anchor === 'start' ? 2 : anchor === 'end' ? width - 2 : cx;
      const labelStart = anchor === 'start' ? 2 : anchor === 'end' ? width - 2 - labelWidth : cx - labelWidth / 2;
      const start = Math.min(labelStart, cx - 14, connect ? mx : Infinity);
      const end = Math.max(labelStart + labelWidth, cx + 14, connect ? mx : -Infinity);
      let row = rowEnds.findIndex((spans) => spans.every(([a, b]) => end + 16 < a || b + 16 < start));
      if (row === -1) {
        row = rowEnds.length;
        rowEnds.push([]);
      }
      rowEnds[row]!.push([start, end]);
      return { ...p, cx, labelX, anchor, row };
    });

  const rowHeight = 62;
  const top = 48;
  const rows = Math.max(1, rowEnds.length);
  const axisY = top + rows * rowHeight + 12;
  const body: string[] = [];

  // Axis and ticks.
  body.push(`<line x1="${left}" x2="${right}" y1="${axisY}" y2="${axisY}" stroke="#111" stroke-width="2"/>`);
  for (const t of ticks) {
    body.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${top - 6}" y2="${axisY}" stroke="#d0d0d0" stroke-width="1"/>`);
    body.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${axisY}" y2="${axisY + 10}" stroke="#111" stroke-width="2"/>`);
    body.push(`<text x="${x(t)}" y="${axisY + 34}" text-anchor="middle" font-size="18" fill="#111">${esc(options.tick ? options.tick(t) : String(t))}</text>`);
  }

  // The measurement: a thick line across every row, its value on top.
  const mLabelWidth = textWidth(options.measured.label, 22, true);
  const mAnchor = mx - mLabelWidth / 2 < 2 ? 'start' : mx + mLabelWidth / 2 > width - 2 ? 'end' : 'middle';
  const mLabelX = mAnchor === 'start' ? 2 : mAnchor === 'end' ? width - 2 : mx;
  body.push(`<rect class="measured" x="${(mx - 3.5).toFixed(1)}" y="${top - 8}" width="7" height="${axisY - top + 18}" fill="#111"/>`);
  body.push(`<text x="${mLabelX.toFixed(1)}" y="${top - 18}" text-anchor="${mAnchor}" font-weight="700" font-size="22" fill="#111">${esc(options.measured.label)}</text>`);

  // The predictions: the miss as a dashed line, the dot, the label above it (with a white halo over the lines).
  for (const p of placed) {
    const cy = top + p.row * rowHeight + 44;
    if (connect && Math.abs(p.cx - mx) > 14) body.push(`<line x1="${p.cx.toFixed(1)}" x2="${mx.toFixed(1)}" y1="${cy}" y2="${cy}" stroke="#444" stroke-width="2.5" stroke-dasharray="7 5"/>`);
    body.push(`<circle class="prediction" cx="${p.cx.toFixed(1)}" cy="${cy}" r="12" fill="#0072b2" stroke="#ffffff" stroke-width="3"/><circle cx="${p.cx.toFixed(1)}" cy="${cy}" r="13.5" fill="none" stroke="#111" stroke-width="1.5"/>`);
    body.push(`<text x="${p.labelX.toFixed(1)}" y="${cy - 21}" text-anchor="${p.anchor}" font-weight="700" fill="#003a5d" paint-order="stroke" stroke="#ffffff" stroke-width="6" stroke-linejoin="round">${esc(p.label)}</text>`);
  }
  const height = axisY + 46;
  return `${svgOpen(options.id, width, height, options.title, options.desc)}${body.join('')}</svg>`;
}
