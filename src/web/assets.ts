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
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:2rem 0 .5rem}
section{background:#fff;border:1px solid #e2e2de;border-radius:8px;padding:1rem;margin-bottom:1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:500}
input,select{width:100%;padding:.55rem .6rem;font:inherit;border:1px solid #b9b9b3;border-radius:6px;background:#fff}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1f4fd1;background:#1f4fd1;color:#fff;cursor:pointer;margin-top:.75rem}
button.secondary{background:#fff;color:#1f4fd1}
button.danger{background:#fff;color:#b3261e;border-color:#b3261e;margin:0;padding:.25rem .6rem;font-size:.9rem}
.error{color:#b3261e;background:#fdecea;border:1px solid #f3c1bd;border-radius:6px;padding:.5rem .75rem}
.notice{background:#eaf3ea;border:1px solid #b7d7b7;border-radius:6px;padding:.5rem .75rem}
.secret{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
strong.mono{word-break:normal;overflow-wrap:anywhere}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em;word-break:break-all}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th,td{text-align:left;padding:.4rem .3rem;border-bottom:1px solid #ececea;vertical-align:top}
.muted{color:#6b6b66}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
ul{padding-left:1.25rem}
@media (max-width:34rem){table,thead,tbody,tr,th,td{display:block}thead{display:none}tr{border-bottom:1px solid #e2e2de;padding:.4rem 0}td{border:0;padding:.1rem 0}}
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
