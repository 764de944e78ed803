/**
 * The layout checker (test/helpers/layout.ts) on small hand-made pages in
 * chromium: each defect alone fires its own check, named in words, and a
 * page with none of them (but with the near misses a real page has: a
 * diagonal line past a label, a badge drawn round its text, stacked lines of
 * text, light marks under dark text) gives nothing. A check that is missing
 * or cannot fire fails here.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from './helpers/chromium.js';
import { layoutProblems } from './helpers/layout.js';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 800, height: 600 } });
});
afterAll(async () => {
  await browser?.close();
});

const STYLE = '<style>body { margin: 0; font: 20px/1.4 sans-serif; color: #000; background: #fff; } svg { display: block; }</style>';

/** The clean page: everything a chart page has, with nothing wrong. */
const CLEAN = `${STYLE}
<main id="q">
  <h3>First predictions</h3>
  <p>Two lines of text, one after another, wrapped by the browser in a narrow column that is much narrower than the text.</p>
  <p style="width: 200px">Two lines of text wrapped by the browser.</p>
  <span data-mark style="display: inline-block; border: 3px solid #000; padding: 2px 8px; background: #ffe08a">A badge round its text</span>
  <svg width="600" height="200" viewBox="0 0 600 200">
    <rect x="0" y="0" width="600" height="200" fill="#fff" />
    <rect x="300" y="20" width="80" height="120" fill="#cfe0f5" />
    <line x1="340" y1="20" x2="340" y2="140" stroke="#003a75" stroke-width="5" />
    <text x="10" y="30" font-size="24" fill="#000">Row label</text>
    <line x1="10" y1="60" x2="250" y2="190" stroke="#000" stroke-width="3" />
    <text x="150" y="70" font-size="20" fill="#000">Past the line</text>
    <text x="340" y="180" font-size="24" fill="#003a75" text-anchor="middle">Measured: 37%</text>
  </svg>
</main>`;

async function check(html: string, inView?: string): Promise<string[]> {
  await page.setContent(html);
  return layoutProblems(page, inView ? { inView } : {});
}

describe('the layout checker', () => {
  it('finds nothing on a page with no defect', async () => {
    expect(await check(CLEAN, '#q')).toEqual([]);
  });

  it('finds two text boxes that intersect, naming both', async () => {
    const problems = await check(`${STYLE}<h3 style="margin:0">First predictions</h3><p style="position:absolute; top:4px; left:40px; margin:0">Measured: 16.4%</p>`);
    expect(problems).toEqual(["'First predictions' (h3) overlaps 'Measured: 16.4%' (p)"]);
  });

  it('finds text over text inside an SVG ("91%91%")', async () => {
    const problems = await check(`${STYLE}<svg width="300" height="60"><text x="10" y="30" font-size="20">91%</text><text x="30" y="30" font-size="20">91%</text></svg>`);
    expect(problems).toEqual(["'91%' (svg text) overlaps '91%' (svg text)"]);
  });

  it('finds a line, a band and a marked element running across text they do not hold', async () => {
    const line = await check(`${STYLE}<svg width="400" height="100"><text x="10" y="40" font-size="24">First predictions</text><line x1="60" y1="0" x2="60" y2="100" stroke="#003a75" stroke-width="4" stroke-dasharray="12 6" /></svg>`);
    expect(line).toEqual(["(svg line) crosses 'First predictions' (svg text)"]);
    const band = await check(`${STYLE}<svg width="400" height="100"><rect x="50" y="0" width="40" height="100" fill="#cfe0f5" /><text x="10" y="40" font-size="24">First predictions</text></svg>`);
    expect(band).toEqual(["(svg rect) crosses 'First predictions' (svg text)"]);
    const rule = await check(`${STYLE}<h3 style="margin:20px 0">Now, with revisions</h3><div data-mark style="position:absolute; top:0; left:50px; width:4px; height:100px; background:#000"></div>`);
    expect(rule).toEqual(["(div) crosses 'Now, with revisions' (h3)"]);
  });

  it('finds text outside its box: overflowing it, clipped by an ancestor, past its SVG, off the page', async () => {
    const spill = await check(`${STYLE}<div style="width:60px; white-space:nowrap">host-with-a-long-name</div>`);
    expect(spill).toEqual(["'host-with-a-long-name' (div) runs outside its box (div)"]);
    const clipped = await check(`${STYLE}<div style="width:80px; overflow:hidden"><span style="display:inline-block; width:300px">A header cut off</span></div>`);
    expect(clipped).toEqual(["'A header cut off' (span) is clipped by div"]);
    const svg = await check(`${STYLE}<svg width="100" height="60"><text x="40" y="30" font-size="20">Measured: 16.4%</text></svg>`);
    expect(svg).toEqual(["'Measured: 16.4%' (svg text) runs outside its box (svg svg)"]);
    const off = await check(`${STYLE}<p style="margin-left:-30px">Off the left edge</p>`);
    expect(off).toEqual(["'Off the left edge' (p) is off the page"]);
  });

  it('finds horizontal scroll, of the page or of a scrolling element', async () => {
    expect(await check(`${STYLE}<div style="width:1200px; height:10px"></div>`)).toEqual(['the page scrolls sideways (1200 px wide in 800)']);
    expect(await check(`${STYLE}<div style="width:200px; overflow-x:auto"><div style="width:500px; height:10px"></div></div>`)).toEqual(['(div) scrolls sideways (500 px in 200)']);
  });

  it('finds text under 4.5:1 against what is under it: grey on white, dark on dark, SVG text on its band', async () => {
    expect(await check(`${STYLE}<p style="color:#999">Updated 10:41</p>`)).toEqual(["'Updated 10:41' (p) has contrast 2.85:1 (under 4.5:1)"]);
    expect(await check(`${STYLE}<div style="background:#003a75"><p style="color:#333">Revealed</p></div>`)).toHaveLength(1);
    expect(await check(`${STYLE}<svg width="400" height="100"><rect x="0" y="0" width="400" height="100" fill="#003a75" /><text x="10" y="40" font-size="24" fill="#000">On the band</text></svg>`)).toEqual([
      "'On the band' (svg text) has contrast 1.86:1 (under 4.5:1)",
    ]);
    // White on the accent is fine: the background comes from the ancestor.
    expect(await check(`${STYLE}<div style="background:#003a75"><p style="color:#fff">Revealed</p></div>`)).toEqual([]);
  });

  it('finds the current question not wholly in the viewport, or missing', async () => {
    expect(await check(`${STYLE}<div style="height:500px"></div><section id="q" style="height:300px">Question</section>`, '#q')).toEqual(["'Question' (section) is not wholly in the viewport (0,500 to 800,800 in 800x600)"]);
    expect(await check(`${STYLE}<p>Nothing</p>`, '#q')).toEqual(['#q is not on the page']);
  });
});
