/* The JSX runtime is named here, not only in tsconfig.json (see ./layout.tsx). */
/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/** `/` (DESIGN §9): what the service does, for a visitor, and the way in. */
import { Layout } from './layout.tsx';
import type { SessionInfo } from './pages.tsx';

export function LandingPage(props: { who: SessionInfo | undefined }) {
  const { who } = props;
  return (
    <Layout title="Hear what your customers struggle with" {...(who ? { email: who.email, csrf: who.csrf } : {})}>
      <section>
        <p>
          Project Signals reads the communities your customers talk in — subreddits, Hacker News, Stack Overflow, GitHub issues, Discourse forums — and
          every morning turns what is new into a short brief: numbered signals, each with the quote behind it and a suggested move.
        </p>
        <ul>
          <li>
            <strong>Pain themes</strong>: what people struggle with, grouped by meaning, with every post behind each.
          </li>
          <li>
            <strong>Competitors</strong>: which products people name, and what they complain about.
          </li>
          <li>
            <strong>Project memory</strong>: your product, ideal customer, competitors and offerings, built from your website and yours to edit.
          </li>
          <li>
            <strong>In your AI assistant</strong>: Claude, ChatGPT and IDE agents read it all through MCP; developers through one JSON API.
          </li>
        </ul>
        <p class="actions">
          {who ? (
            <a class="button" href="/dashboard">Go to your projects</a>
          ) : (
            <>
              <a class="button" href="/signup">Create an account</a>
              <a class="button secondary" href="/login">Sign in</a>
            </>
          )}
        </p>
      </section>
    </Layout>
  );
}
