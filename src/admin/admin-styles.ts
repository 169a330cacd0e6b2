/**
 * The one stylesheet of the admin pages, inlined in a `<style>` element and allowed by the
 * Content-Security-Policy through its SHA-256 hash (no external assets, no inline `style`
 * attributes, no script).
 */
export const ADMIN_STYLES = `
:root{color-scheme:light;--ink:#1d2327;--muted:#50575e;--line:#dcdcde;--page:#f0f0f1;--card:#fff;--accent:#2271b1;--accent-dark:#135e96;--error:#b32d2e;--error-bg:#fcf0f1;--ok:#00a32a;--ok-bg:#edfaef;--warning:#dba617;--warning-bg:#fcf9e8;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:15px;line-height:1.5}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--ink)}
a{color:var(--accent)}
a:hover{color:var(--accent-dark)}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.skip-link{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem 1rem;z-index:1}
.skip-link:focus{left:1rem}
.admin-bar{background:#1d2327;color:#f0f0f1}
.admin-bar-inner{max-width:64rem;margin:0 auto;padding:.6rem 1.25rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
.admin-bar-brand{font-weight:600}
.admin-bar nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:1.25rem}
.admin-bar a{color:#f0f0f1;text-decoration:none}
.admin-bar a:hover,.admin-bar a[aria-current="page"]{color:#72aee6;text-decoration:underline}
main{max-width:64rem;margin:0 auto;padding:1.5rem 1.25rem 3rem}
h1{font-size:1.6rem;font-weight:600;margin:0 0 .25rem}
.page-subtitle{margin:0 0 1.25rem;color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.25rem 1.5rem;margin:0 0 1.25rem}
.notice{border:1px solid var(--line);border-left:4px solid var(--ok);background:var(--ok-bg);padding:.75rem 1rem;margin:0 0 1.25rem;border-radius:4px}
.notice p{margin:0}
.notice-error{border-left-color:var(--error);background:var(--error-bg)}
.notice-warning{border-left-color:var(--warning);background:var(--warning-bg)}
.error-summary h2{font-size:1rem;margin:0 0 .25rem}
.error-summary ul{margin:0;padding-left:1.25rem}
.error-summary a{color:var(--error)}
.field{display:grid;grid-template-columns:minmax(9rem,15rem) minmax(0,1fr);gap:.35rem 1.5rem;align-items:start;padding:1.1rem 0;margin:0;border:0;border-top:1px solid var(--line);min-inline-size:0}
.card>.field:first-child,.card>.field-list>.field:first-child{border-top:0}
fieldset.field>legend{float:left;padding:0}
.field-label{font-weight:600;padding-top:.45rem;overflow-wrap:anywhere}
.field-input{min-width:0}
.field-help{margin:.35rem 0 0;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
.field-inherit{margin:0 0 .35rem;font-size:.9rem;display:flex;gap:.4rem;align-items:center;flex-wrap:wrap}
.field-origin{color:var(--muted)}
.read-only-fields{border:0;margin:0;padding:0;min-inline-size:0}
.scope-switcher{display:flex;gap:.5rem;align-items:center;margin:0 0 1.25rem}
.scope-switcher input{max-width:16rem}
.field-error{margin:.35rem 0 0;color:var(--error);font-weight:600;font-size:.9rem;overflow-wrap:anywhere}
.field-invalid .field-label{color:var(--error)}
.field-invalid{box-shadow:inset 3px 0 0 var(--error);padding-left:.75rem;margin-left:-.75rem}
input[type="text"],input[type="email"],input[type="password"],input[type="number"],input[type="date"],input[type="file"],select,textarea{font:inherit;color:inherit;width:100%;max-width:32rem;padding:.4rem .6rem;border:1px solid #8c8f94;border-radius:4px;background:#fff}
input[type="number"],input[type="date"]{max-width:14rem}
input[type="file"]{padding:.3rem}
input[type="color"]{width:4rem;height:2.3rem;padding:.15rem;border:1px solid #8c8f94;border-radius:4px;background:#fff}
input[type="range"]{width:100%;max-width:32rem;margin:.6rem 0 0}
textarea{min-height:7rem;resize:vertical}
textarea.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875rem}
select[multiple]{min-height:7rem;padding:.25rem}
input:disabled,select:disabled,textarea:disabled{background:#f6f7f7;color:var(--muted);border-color:var(--line)}
[aria-invalid="true"]{border-color:var(--error);box-shadow:0 0 0 1px var(--error)}
.choice-list{list-style:none;margin:0;padding:.4rem 0 0;display:grid;gap:.35rem}
.choice{display:flex;gap:.5rem;align-items:flex-start}
.choice input{margin:.3rem 0 0;width:1rem;height:1rem;flex:none}
.single-checkbox{display:flex;gap:.5rem;align-items:center;padding-top:.4rem}
.single-checkbox input{width:1.1rem;height:1.1rem;margin:0}
.form-actions{display:flex;gap:1rem;align-items:center}
.button-primary{font:inherit;font-weight:600;background:var(--accent);color:#fff;border:1px solid var(--accent);border-radius:4px;padding:.5rem 1.1rem;cursor:pointer}
.button-primary:hover{background:var(--accent-dark);border-color:var(--accent-dark)}
.button-secondary{font:inherit;font-weight:600;background:#f6f7f7;color:var(--accent);border:1px solid var(--accent);border-radius:4px;padding:.4rem .9rem;cursor:pointer;line-height:1.4}
.button-secondary:hover{background:#f0f6fc;border-color:var(--accent-dark);color:var(--accent-dark)}
.field-history{margin:.35rem 0 0;font-size:.9rem}
.back-link{margin:0 0 1rem}
.table-card{padding:.25rem 1.5rem .75rem;overflow-x:auto}
.history-table{width:100%;border-collapse:collapse}
.history-table caption{text-align:left;font-weight:600;padding:.75rem 0 .25rem}
.history-table th,.history-table td{text-align:left;vertical-align:top;padding:.6rem .75rem .6rem 0;border-top:1px solid var(--line)}
.history-table thead th{border-top:0;color:var(--muted);font-size:.875rem}
.history-table td:last-child,.history-table th:last-child{padding-right:0}
.history-action{font-weight:600}
.history-value{white-space:pre-wrap;overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875rem}
.history-restore{margin:0}
.history-restore .button-secondary{white-space:nowrap}
.pager{display:flex;gap:1rem;align-items:center;margin:0 0 1rem}
.status-block h2{font-size:1.15rem;margin:1rem 0 .25rem}
.status-block .status-id{margin:0 0 .5rem;color:var(--muted);font-size:.875rem}
.status-list{list-style:none;margin:0 0 1rem;padding:0}
.status-list .status-list{margin:.25rem 0 .25rem;padding-left:1.25rem;border-left:2px solid var(--line)}
.status-list li{padding:.2rem 0}
.status-key{margin-right:.15rem;font-weight:600;color:var(--muted)}
.status-text{white-space:pre-wrap;overflow-wrap:anywhere}
.status-empty{color:var(--muted);font-style:italic}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
@media (max-width:40rem){.field{grid-template-columns:minmax(0,1fr)}.field-label{padding-top:0}.card{padding:.25rem 1rem}}
`;
