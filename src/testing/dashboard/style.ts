/** The dashboard's stylesheet: system fonts, readable at a glance, light and dark. */
export const DASHBOARD_STYLE = `
:root{--bg:#f6f7f9;--card:#fff;--text:#1c2430;--muted:#5b6675;--line:#e2e6eb;--accent:#2357c6;
--ok:#136c3a;--ok-bg:#dcf3e4;--bad:#a3261d;--bad-bg:#fbe3e1;--wait:#7a5200;--wait-bg:#fdf0cf;
--off:#4d5561;--off-bg:#e9ecf0;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#111418;--card:#1a1f26;--text:#e6e9ee;--muted:#9aa4b2;
--line:#2c333d;--accent:#7aa7ff;--ok:#7fdc9f;--ok-bg:#173824;--bad:#ff9b92;--bad-bg:#45201d;
--wait:#f3cc6b;--wait-bg:#3d3115;--off:#c3cad4;--off-bg:#2a3039}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--card);padding:4px 8px}
.bar{display:flex;align-items:center;gap:12px;padding:10px 24px;background:var(--card);border-bottom:1px solid var(--line)}
.brand{font-weight:700;font-size:17px;text-decoration:none;color:var(--text)}.brand span{color:var(--muted);font-weight:500}
.env{font-size:12px;text-transform:uppercase;letter-spacing:.05em;padding:2px 8px;border-radius:10px;background:var(--off-bg);color:var(--off)}
.live{margin-left:auto;font-size:13px;color:var(--muted)}.live::before{content:"●";margin-right:6px;color:var(--wait)}
.live.on::before{color:var(--ok)}
main{max-width:1180px;margin:0 auto;padding:20px 24px 48px}main:focus{outline:none}
.notice{margin:12px max(24px,calc((100% - 1132px)/2)) 0;padding:10px 14px;border-radius:6px;background:var(--ok-bg);color:var(--ok)}
.notice.error{background:var(--bad-bg);color:var(--bad)}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;margin:0 0 18px;overflow:hidden}
.card>header{display:flex;flex-wrap:wrap;align-items:baseline;gap:6px 14px;padding:12px 16px;border-bottom:1px solid var(--line)}
.card h2,.card h3{margin:0;font-size:16px}
.sub{color:var(--muted);font-size:13px}
.balance{margin-left:auto;text-align:right}.balance b{font-size:18px;font-variant-numeric:tabular-nums}
.balance small{display:block;color:var(--muted);font-size:12px}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:7px 16px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.04em}
tr:last-child td{border-bottom:none}
td.num,th.num{text-align:right;white-space:nowrap}
td.wrap{word-break:break-all}
.nowrap{white-space:nowrap}
tbody tr:hover{background:color-mix(in srgb,var(--accent) 5%,transparent)}
.empty{padding:12px 16px;color:var(--muted)}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}
.badge::before{margin-right:4px}
.s-APPROVED,.s-delivered{background:var(--ok-bg);color:var(--ok)}.s-APPROVED::before,.s-delivered::before{content:"✓"}
.s-REJECTED,.s-DECLINED,.s-failed,.s-error{background:var(--bad-bg);color:var(--bad)}
.s-REJECTED::before,.s-DECLINED::before,.s-failed::before,.s-error::before{content:"✕"}
.s-PENDING,.s-CREATED,.s-pending,.s-queued{background:var(--wait-bg);color:var(--wait)}
.s-PENDING::before,.s-CREATED::before,.s-pending::before,.s-queued::before{content:"◷"}
.s-EXPIRED,.s-disabled,.s-other{background:var(--off-bg);color:var(--off)}.s-EXPIRED::before{content:"○"}
.back{display:inline-block;margin-bottom:12px}
.page-title{font-size:14px;color:var(--muted);font-weight:600;margin:0 0 12px}
.title{display:flex;flex-wrap:wrap;align-items:center;gap:10px;margin:0 0 16px}
.title h1{margin:0;font-size:22px;min-width:0;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.title .amount{margin-left:auto;font-size:20px;font-weight:700}
.grid{display:grid;grid-template-columns:minmax(0,1.4fr) minmax(0,1fr);gap:18px}
@media (max-width:860px){.grid{grid-template-columns:1fr}}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:6px 16px;margin:0;padding:12px 16px}
dt{color:var(--muted);font-size:13px}dd{margin:0;min-width:0;overflow-wrap:anywhere}
.actions{padding:12px 16px}.actions p{margin:0 0 10px;color:var(--muted);font-size:13px}
.row{display:flex;flex-wrap:wrap;gap:8px;margin-bottom:12px}
button{font:inherit;font-weight:600;font-size:14px;padding:7px 14px;border-radius:6px;border:1px solid var(--line);background:var(--card);color:var(--text);cursor:pointer}
button.small{font-size:12px;padding:3px 8px}
td.quick{white-space:nowrap}td.quick button+button{margin-left:6px}
button:disabled{opacity:.55;cursor:not-allowed}
button.b-APPROVED{background:var(--ok);border-color:var(--ok);color:var(--card)}
button.b-REJECTED{background:var(--bad);border-color:var(--bad);color:var(--card)}
button.b-EXPIRED{background:var(--off);border-color:var(--off);color:var(--card)}
.answer{color:var(--muted);font-size:12px;display:block;max-width:360px;word-break:break-all}
.merchants{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:12px;margin:0 0 18px}
.merchants .card{margin:0}.card.merchant>header{display:block;border-bottom:none}
.merchant h2{font-size:15px}
.card.merchant>header{padding:12px 14px}
.merchant .balance{margin:8px 0 0;text-align:left}.merchant .balance b{font-size:16px;white-space:nowrap}
.panel{background:var(--card);border:1px solid var(--line);border-radius:8px;margin:0 0 18px}
.panel>header{display:flex;flex-wrap:wrap;align-items:center;gap:8px 14px;padding:12px 16px;border-bottom:1px solid var(--line)}
.panel h2{margin:0;font-size:16px}
.filters{display:flex;flex-wrap:wrap;align-items:center;gap:8px 14px;margin-left:auto}
.field{display:flex;align-items:center;gap:8px}.field label{font-size:13px;font-weight:600;color:var(--muted)}
input,select{font:inherit;font-size:14px;padding:6px 10px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--text)}
.field.grow input{width:280px;max-width:100%}
.retention{margin:0;padding:8px 16px;font-size:13px;background:var(--off-bg);color:var(--off)}
.rows{overflow-x:auto}
.ref{display:inline-block;max-width:24em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
.c-merchant{font-size:13px;white-space:nowrap}
table.list th,table.list td{padding:7px 10px}table.list th:first-child,table.list td:first-child{padding-left:16px}
table.list td{vertical-align:middle}
/* Every confirm button stays on screen at 1280 px with real PayOut rows: the reference column
   takes what the others leave (max-width:0 lets an auto-layout column shrink) on up to two lines,
   and the method may wrap after "PayOut ·". */
table.list td.c-ref{width:100%;max-width:0}
table.list .ref{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;max-width:none;white-space:normal;overflow-wrap:anywhere}
table.list td.c-method{white-space:normal;min-width:8em}
.pager{display:flex;align-items:center;justify-content:space-between;gap:8px;padding:10px 16px;border-top:1px solid var(--line)}
.position{color:var(--muted);font-size:13px;text-align:center;font-variant-numeric:tabular-nums}
@media (max-width:720px){
.bar{padding:10px 12px}main{padding:14px 12px 40px}
.merchants{grid-template-columns:1fr;gap:0;background:var(--card);border:1px solid var(--line);border-radius:8px;overflow:hidden}
.merchants .card{border:none;border-radius:0;border-bottom:1px solid var(--line)}.merchants .card:last-child{border-bottom:none}
.card.merchant>header{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:0 12px;padding:8px 12px}
.merchant h2{grid-area:1/1;font-size:14px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.merchant .sub{grid-area:2/1;font-size:12px}
.merchant .balance{grid-area:1/2/3/3;margin:0;text-align:right}.merchant .balance b{font-size:15px}
.filters{margin-left:0;width:100%}.field.grow{flex:1 1 100%}.field.grow input{width:100%}.field select{max-width:100%}
.field label{min-width:3.4em}.c-actions .sub{display:none}
table.list thead{display:none}table.list,table.list tbody{display:block}
table.list tr{display:grid;grid-template-columns:auto minmax(0,1fr) auto;align-items:center;gap:6px 12px;padding:10px 12px;border-bottom:1px solid var(--line)}
table.list td,table.list td:first-child{padding:0;border:none;min-width:0}
.c-ref{grid-area:1/1/2/3}.c-amount{grid-area:1/3;justify-self:end}
/* Status, then the confirm buttons on a row of their own (three fit at 390 px beside nothing;
   beside the status they overlapped it), then when, who and how. */
.c-status{grid-area:2/1/3/4}.c-actions{grid-area:3/1/4/4;justify-self:start;white-space:normal;text-align:left}
.c-created{grid-area:4/1}.c-merchant{grid-area:4/2;overflow:hidden;text-overflow:ellipsis}.c-method{grid-area:4/3;justify-self:end}
td.c-actions:has(> .sub){display:none}
td.quick button.small{margin:2px 4px 2px 0}td.quick button+button{margin-left:0}
.c-created,.c-method,.c-merchant{font-size:12px;color:var(--muted)}
table.list .ref{display:block;max-width:100%;font-weight:600;white-space:nowrap}table.list td.c-ref{width:auto;max-width:none}
table.list td.c-method{white-space:nowrap;min-width:0}
.pager{padding:10px 12px}.pager button{white-space:nowrap;padding:6px 10px;font-size:13px}.position{font-size:12px}
.card>table{display:block;overflow-x:auto}
}
/* Fault rules panel: its own block, so layout changes elsewhere do not touch it. */
.faults .fault-form{margin-left:auto}.faults .fault-form input{min-width:27em;font-family:var(--mono,monospace)}
.fault-help{margin:8px 16px 0}.fault-scroll{overflow-x:auto}.fault-list td{vertical-align:middle;white-space:nowrap}
@media (max-width:700px){.faults .fault-form{margin-left:0;width:100%}.faults .fault-form input{min-width:0;width:100%}
.fault-list thead{display:none}.fault-list,.fault-list tbody{display:block}
.fault-list tr{display:flex;flex-wrap:wrap;align-items:center;gap:4px 12px;padding:10px 16px;border-bottom:1px solid var(--line)}
.fault-list td{padding:0;border:none}.fault-list td[data-label]::before{content:attr(data-label) ' ';color:var(--muted);font-size:12px}}
`;
