/**
 * The widget's styles, inside its shadow root: the host page's CSS cannot reach in, and these
 * rules cannot leak out. The page can still style the host element itself (its rules beat
 * `:host`), so everything — position, font, colours, custom properties — is set on `.frame`
 * inside, and `:host { all: initial }` only stops inherited properties from flowing in.
 */
export const STYLES = `
:host{all:initial}
:host([hidden]){display:none}
.frame{position:fixed;right:20px;bottom:20px;z-index:2147483000;display:flex;flex-direction:column;align-items:flex-end;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#16151d;text-align:left;color-scheme:light;--accent:#6d5ef5;--accent-text:#fff;--bg:#fff;--soft:#f1f0f6;--line:#e3e1ee;--muted:#5f5b70}
@media (prefers-color-scheme:dark){.frame{color:#f4f3f8;color-scheme:dark;--bg:#17161f;--soft:#24232f;--line:#33313f;--muted:#aaa6bd}}
*{box-sizing:border-box;font:inherit;color:inherit;margin:0}
button{cursor:pointer;border:0;background:none;padding:0}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.bubble{position:relative;width:56px;height:56px;border-radius:50%;background:var(--accent);color:var(--accent-text);display:grid;place-items:center;box-shadow:0 6px 24px rgba(20,16,60,.3);transition:transform .15s}
.bubble:hover{transform:scale(1.06)}
.bubble svg{width:26px;height:26px}
.bubble[hidden]{display:none}
.badge{position:absolute;top:-2px;right:-2px;min-width:20px;height:20px;padding:0 5px;border-radius:10px;background:#e5484d;color:#fff;font-size:12px;font-weight:600;line-height:20px;text-align:center}
.badge:empty{display:none}
.panel{width:min(370px,calc(100vw - 40px));height:min(560px,calc(100vh - 40px));display:flex;flex-direction:column;background:var(--bg);border:1px solid var(--line);border-radius:16px;overflow:hidden;box-shadow:0 12px 48px rgba(20,16,60,.28)}
.panel[hidden]{display:none}
header{display:flex;align-items:center;gap:8px;padding:14px 16px;background:var(--accent);color:var(--accent-text)}
h2{flex:1;font-size:16px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.close{width:32px;height:32px;border-radius:8px;display:grid;place-items:center;color:var(--accent-text)}
.close:hover{background:rgba(255,255,255,.16)}
.close svg{width:18px;height:18px}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:8px}
.greeting,.msg p{padding:8px 12px;border-radius:14px;max-width:85%;white-space:pre-wrap;overflow-wrap:anywhere}
.greeting{background:var(--soft);align-self:flex-start;border-bottom-left-radius:4px}
ul{list-style:none;padding:0;display:flex;flex-direction:column;gap:8px}
.msg{display:flex;flex-direction:column;align-items:flex-start}
.msg.visitor{align-items:flex-end}
.msg.business p{background:var(--soft);border-bottom-left-radius:4px}
.msg.visitor p{background:var(--accent);color:var(--accent-text);border-bottom-right-radius:4px}
.meta{font-size:11px;color:var(--muted);margin-top:2px;display:flex;gap:6px}
.meta button{text-decoration:underline;color:var(--accent);font-size:11px}
.msg.failed p{opacity:.6}
.survey{display:flex;flex-direction:column;gap:6px;margin-top:6px;max-width:85%}
.stars{display:flex;gap:2px}
.star{font-size:26px;line-height:1;color:var(--line);padding:2px}
.star.on{color:#f5a524}
.survey textarea{resize:vertical;padding:7px 10px;border:1px solid var(--line);border-radius:10px;background:var(--bg)}
.rate{align-self:flex-start;padding:6px 14px;border-radius:10px;background:var(--accent);color:var(--accent-text);font-weight:600}
.rate:disabled{opacity:.6;cursor:default}
.thanks,.note{font-size:12px;color:var(--muted)}
.note:empty{display:none}
.status{padding:6px 16px;font-size:12px;color:var(--muted)}
.status:empty{display:none}
form{display:flex;align-items:flex-end;gap:8px;padding:10px 12px;border-top:1px solid var(--line)}
textarea{flex:1;resize:none;max-height:120px;padding:9px 12px;border:1px solid var(--line);border-radius:12px;background:var(--bg);outline:none}
textarea:focus{border-color:var(--accent)}
.send{width:38px;height:38px;border-radius:50%;background:var(--accent);color:var(--accent-text);display:grid;place-items:center;flex:none}
.send:disabled{opacity:.5;cursor:default}
.send svg{width:18px;height:18px}
@media (max-width:480px){.frame{right:12px;bottom:12px}.panel{position:fixed;inset:0;width:100vw;height:100dvh;border-radius:0;border:0}}
@media (prefers-reduced-motion:reduce){.bubble{transition:none}}
`;
