/**
 * The projector page's CSS (src/class/projector-page.ts): large type, black
 * on white, thick lines, for a room reading it off a wall.
 */
export const PROJECTOR_CSS = `
:root { --ink: #000; --muted: #333; --line: #777; --accent: #003a75; --card: #fff; }
* { box-sizing: border-box; }
html { font-size: 24px; }
body { margin: 0; font-family: system-ui, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; line-height: 1.35; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .3rem 1.5rem; padding: .6rem 1.2rem; border-bottom: 6px solid var(--accent); }
h1 { font-size: 2rem; margin: 0; }
#status { font-size: 1.1rem; margin: 0; font-weight: 600; }
#status.problem { border: 3px solid #000; padding: .1rem .5rem; background: #ffe08a; }
#updated { font-size: .9rem; margin: 0 0 0 auto; color: var(--muted); }
main { padding: 0 1.2rem 3rem; }
section.lab { border-top: 4px solid var(--line); margin-top: 1.2rem; padding-top: .4rem; }
h2 { font-size: 1.8rem; margin: .2rem 0; }
h2 .key { display: inline-block; min-width: 1.6em; border: 3px solid var(--ink); border-radius: 6px; text-align: center; margin-right: .4rem; }
h2 code { font-size: .6em; color: var(--muted); font-weight: normal; margin-left: .5rem; }
h2 code.inline { font-size: .9em; color: var(--ink); font-weight: 700; margin: 0; }
.stats { font-size: 1.2rem; margin: .2rem 0; }
.reveal { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; margin: .3rem 0 .6rem; font-size: 1.1rem; }
.badge { border: 3px solid var(--ink); border-radius: 6px; padding: .05rem .5rem; font-weight: 700; }
.badge.hidden { border-style: dashed; }
button { font: inherit; font-size: 1rem; padding: .25rem .8rem; border: 3px solid var(--accent); border-radius: 6px; background: #fff; color: var(--accent); font-weight: 700; cursor: pointer; }
button:focus-visible { outline: 4px solid #000; outline-offset: 2px; }
.q { border: 2px solid var(--line); border-radius: 8px; padding: .5rem .8rem; margin: .6rem 0; }
h3 { font-size: 1.2rem; margin: 0 0 .2rem; font-weight: 600; }
.qid { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .75rem; color: var(--muted); margin-left: .4rem; }
.count { font-size: 1.4rem; font-weight: 800; margin: .1rem 0; }
.measured { font-size: 1.3rem; font-weight: 800; color: var(--accent); margin: .2rem 0; }
.hiddennote { font-size: 1rem; color: var(--muted); font-style: italic; margin: .2rem 0; }
/* A chart (src/class/chart-script.ts) is drawn for its box's own pixels, so its svg fills the box exactly; the box clips what drawLabels has not yet dropped. */
.chart { position: relative; overflow: hidden; margin: .2rem 0; }
.chart svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; display: block; }
.numbers { font-size: 1rem; margin: .1rem 0; }
.lrow { display: grid; grid-template-columns: 11rem 1fr; gap: .2rem .6rem; align-items: center; margin: .35rem 0; }
.lname { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 1.05rem; text-align: right; overflow-wrap: anywhere; }
.lname.right { font-weight: 800; }
.lbars { display: flex; flex-direction: column; gap: .15rem; }
.lbar { display: flex; align-items: center; gap: .5rem; font-size: .9rem; }
.lbar span.b { display: inline-block; height: 1.1rem; border: 3px solid var(--ink); }
.lbar.first span.b { background: repeating-linear-gradient(45deg, #fff 0 6px, #999 6px 9px); }
.lbar.latest span.b { background: var(--ink); }
.tick { font-weight: 800; color: var(--accent); }
table { border-collapse: collapse; font-size: 1rem; margin: .3rem 0; }
th, td { border: 2px solid var(--line); padding: .1rem .5rem; text-align: left; vertical-align: top; }
.name { overflow-wrap: anywhere; max-width: 18rem; }
.why ol { list-style: none; padding: 0; margin: .2rem 0; }
.why li { font-size: 1.1rem; margin: .2rem 0; }
.why .n { display: inline-block; min-width: 2.4rem; font-weight: 800; text-align: right; margin-right: .5rem; }
.who { font-size: .95rem; color: var(--muted); }
.who .name { color: var(--ink); }
nav#focus { display: flex; flex-wrap: wrap; gap: .3rem; width: 100%; }
nav#focus button { font-size: .95rem; padding: .1rem .6rem; border: 3px solid var(--line); background: #fff; color: var(--ink); border-radius: .3rem; cursor: pointer; }
nav#focus button[aria-pressed="true"] { border-color: var(--accent); background: var(--accent); color: #fff; font-weight: 700; }
`;
