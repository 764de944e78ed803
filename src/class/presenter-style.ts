/**
 * The presenter view's CSS (src/class/presenter-script.ts), added to the
 * projector page's own (projector-style.ts). The whole screen is one
 * question: the page is exactly the window's height and never scrolls, the
 * chart takes what the lab's line, the counts and the prompt leave, and
 * every size is in rem, with the root font following the window (24 px at
 * 1920x1080, 16 px at 1280x720), so the wall shows the same thing whatever
 * the projector's resolution.
 */
export const PRESENTER_CSS = `
#present { font-size: .95rem; padding: .1rem .6rem; }
html.presenting { font-size: min(1.25vw, 2.2223vh); }
html.presenting body { height: 100vh; display: flex; flex-direction: column; overflow: hidden; }
html.presenting header { padding: .15rem 1rem; border-bottom-width: 4px; }
html.presenting h1, html.presenting #updated, html.presenting nav#focus, html.presenting #present { display: none; }
html.presenting #status { font-size: 1rem; }
html.presenting main { flex: 1; min-height: 0; display: flex; padding: 0 1rem .4rem; }
.present { flex: 1; min-width: 0; min-height: 0; display: flex; flex-direction: column; }
.pbar { display: flex; flex-wrap: wrap; align-items: center; gap: .2rem 1rem; padding-top: .3rem; }
.pbar h2 { font-size: 1.3rem; margin: 0; flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
.pnav { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem; }
.pnav .pos { font-size: 1rem; font-weight: 600; }
.present button { font-size: 1rem; padding: .1rem .6rem; }
.present button:disabled { border-color: var(--line); color: #555; cursor: default; }
.pcounts { display: flex; flex-wrap: wrap; align-items: center; gap: .2rem 1rem; margin: .2rem 0; }
.pcounts p { margin: 0; }
.pcounts .count { font-size: 1.3rem; }
.pcounts .stats { font-size: 1rem; }
.pcounts .badge { font-size: 1rem; }
.pcounts .hiddennote { font-size: 1rem; }
.pprompt { font-size: 1.3rem; font-weight: 700; margin: .2rem 0 .3rem; line-height: 1.25; }
.pprompt .qid { font-size: 1rem; }
.pbody { flex: 1; min-height: 0; display: flex; gap: 1rem; }
.present .chart { flex: 1; min-width: 0; min-height: 0; margin: 0; }
.present .chart .hiddennote { font-size: 1rem; }
aside.moved { flex: 0 0 17rem; min-height: 0; overflow: hidden; border-left: 4px solid var(--line); padding-left: .8rem; }
aside.moved h4 { font-size: 1.1rem; margin: 0 0 .2rem; }
aside.moved ol { list-style: none; padding: 0; margin: 0; }
aside.moved li, aside.moved .nobody { font-size: 1rem; margin: 0 0 .15rem; overflow-wrap: anywhere; }
aside.moved .name { font-weight: 700; }
.present .lrow { grid-template-columns: minmax(6rem, 12rem) 1fr; margin: .3rem 0; }
.present .lname, .present .lbar, .present .labels .more { font-size: 1rem; }
.present .lbar span.b { height: 1rem; }
.present .lbars .measured { font-size: 2rem; line-height: 1.15; }
.present .labels .more { margin: .2rem 0; font-weight: 600; }
`;
