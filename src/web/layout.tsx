/* The JSX runtime is named here, not only in tsconfig.json: `npx signals` run from another
   directory transpiles with tsx without finding our tsconfig, and would fall back to React. */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** The shared page frame and small form pieces (Hono JSX, rendered on the server). */
import type { Child } from 'hono/jsx';

export function Layout(props: { title: string; email?: string; csrf?: string; refreshSeconds?: number | undefined; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* While something the page shows is still working (a memory build, a run), it reloads itself: no script needed. */}
        {props.refreshSeconds !== undefined ? <meta http-equiv="refresh" content={String(props.refreshSeconds)} /> : null}
        <title>{`${props.title} · Project Signals`}</title>
        <link rel="stylesheet" href="/assets/app.css" />
      </head>
      <body>
        <header>
          <a class="brand" href="/dashboard">Project Signals</a>
          {props.email !== undefined && props.csrf !== undefined ? (
            <form method="post" action="/logout">
              <span class="muted">{props.email} </span>
              <CsrfField token={props.csrf} />
              <button type="submit" class="secondary">Sign out</button>
            </form>
          ) : null}
        </header>
        <main>
          <h1>{props.title}</h1>
          {props.children}
        </main>
        <script src="/assets/copy.js" defer></script>
      </body>
    </html>
  );
}

export function CsrfField(props: { token: string }) {
  return <input type="hidden" name="csrf" value={props.token} />;
}

export function ErrorBox(props: { message?: string | undefined }) {
  return props.message ? (
    <p class="error" role="alert">
      {props.message}
    </p>
  ) : null;
}
