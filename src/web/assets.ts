/**
 * The pages' only static files, served from memory under /assets (CSP allows 'self' only, so no
 * inline style or script anywhere). Plain, readable on a phone, no framework.
 */
export const APP_CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#f6f6f4}
header,main{max-width:46rem;margin:0 auto;padding:0 1rem}
header{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding-top:1rem;padding-bottom:1rem;flex-wrap:wrap}
header a.brand{font-weight:600;color:inherit;text-decoration:none}
header form{margin:0}
header button{margin-top:0}
section>:first-child{margin-top:0}
section>:last-child{margin-bottom:0}
h3{font-size:1rem;margin:1.25rem 0 .25rem}
ul.items>li form.inline{margin-left:.5rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:2rem 0 .5rem}
section{background:#fff;border:1px solid #e2e2de;border-radius:8px;padding:1rem;margin-bottom:1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:500}
input,select{width:100%;padding:.55rem .6rem;font:inherit;border:1px solid #b9b9b3;border-radius:6px;background:#fff}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1f4fd1;background:#1f4fd1;color:#fff;cursor:pointer;margin-top:.75rem}
button.secondary{background:#fff;color:#1f4fd1}
button.destructive{background:#b3261e;border-color:#b3261e}
button.danger{background:#fff;color:#b3261e;border-color:#b3261e;margin:0;padding:.25rem .6rem;font-size:.9rem}
.error{color:#b3261e;background:#fdecea;border:1px solid #f3c1bd;border-radius:6px;padding:.5rem .75rem}
.notice{background:#eaf3ea;border:1px solid #b7d7b7;border-radius:6px;padding:.5rem .75rem}
.secret{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
strong.mono{word-break:normal;overflow-wrap:anywhere}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th,td{text-align:left;padding:.4rem .3rem;border-bottom:1px solid #ececea;vertical-align:top}
.muted{color:#6b6b66}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
ul{padding-left:1.25rem}
textarea{width:100%;min-height:8rem;padding:.55rem .6rem;font:inherit;border:1px solid #b9b9b3;border-radius:6px;background:#fff;resize:vertical}
a{color:#1f4fd1}
a.button{display:inline-block;padding:.5rem 1rem;border-radius:6px;border:1px solid #1f4fd1;background:#1f4fd1;color:#fff;text-decoration:none}
a.button.secondary{background:#fff;color:#1f4fd1}
.crumbs{margin:0 0 .25rem;font-size:.95rem}
.crumbs .mono{word-break:normal;overflow-wrap:anywhere}
nav.tabs{display:flex;gap:.25rem;flex-wrap:wrap;border-bottom:1px solid #e2e2de;margin:0 0 1rem}
nav.tabs a{padding:.45rem .75rem;text-decoration:none;color:#3b3b38;border-radius:6px 6px 0 0}
nav.tabs a[aria-current=page]{background:#fff;border:1px solid #e2e2de;border-bottom-color:#fff;margin-bottom:-1px;font-weight:600;color:#1d1d1f}
.field-error{color:#b3261e;font-size:.92rem;margin:.25rem 0 0}
input[aria-invalid=true],textarea[aria-invalid=true]{border-color:#b3261e}
.hint{color:#6b6b66;font-size:.9rem;margin:.25rem 0}
.status{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.85rem;border:1px solid #cfcfca;background:#f1f1ee}
.status.ready,.status.complete,.status.ok{background:#eaf3ea;border-color:#b7d7b7}
.status.failed{background:#fdecea;border-color:#f3c1bd}
.status.building,.status.running,.status.queued,.status.pending,.status.skipped{background:#fff6e0;border-color:#ecd59a}
ul.items{list-style:none;padding:0;margin:0}
ul.items>li{border-bottom:1px solid #ececea;padding:.6rem 0}
ul.items>li:last-child{border-bottom:0}
form.inline{display:inline;margin:0}
blockquote{margin:.4rem 0;padding:.2rem .75rem;border-left:3px solid #cfcfca;color:#3b3b38}
.switch{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.25rem 0 .75rem}
.switch>a,.switch>strong{padding:.15rem .65rem;border:1px solid #cfcfca;border-radius:999px;text-decoration:none;background:#fff}
.switch>strong{background:#1d1d1f;color:#fff;border-color:#1d1d1f;font-weight:500}
.pager{display:flex;gap:1rem;align-items:center;flex-wrap:wrap;margin-top:.75rem}
.overflow{overflow-wrap:anywhere}
h2.brief-window{margin-top:0}
h3{font-size:1rem;margin:1rem 0 .25rem}
.item-head,.theme-summary,blockquote>p{margin:.2rem 0}
.item-n{display:inline-block;min-width:2.25rem;font-weight:600;color:#6b6b66}
ul.sources{margin:.25rem 0 0;font-size:.92rem}
details>summary{cursor:pointer;color:#1f4fd1;font-size:.92rem}
@media (max-width:34rem){table,thead,tbody,tr,th,td{display:block}thead{display:none}tr{border-bottom:1px solid #e2e2de;padding:.4rem 0}td{border:0;padding:.1rem 0}td[data-label]::before{content:attr(data-label) ": ";color:#6b6b66}.secret{font-size:.8rem}}
`;

/** Shows the copy buttons (hidden until this runs) and copies the text of their target. */
export const COPY_JS = `document.querySelectorAll('button[data-copy]').forEach(function (b) {
  b.hidden = false;
  b.addEventListener('click', function () {
    var t = document.getElementById(b.getAttribute('data-copy'));
    if (!t) return;
    var v = t.value !== undefined ? t.value : t.textContent;
    navigator.clipboard.writeText(v).then(function () { b.textContent = 'Copied'; }, function () { t.select && t.select(); });
  });
});
`;
