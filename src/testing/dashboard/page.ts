/**
 * The dashboard page: a static HTML shell, one stylesheet and one small script (no framework,
 * no external request). Everything from API callers reaches the DOM through textContent or
 * attributes set by the script, never through HTML parsing, so it is escaped by construction.
 */
import { TOKEN_HEADER } from './csrf.js';
import { DASHBOARD_SCRIPT } from './script.js';
import { DASHBOARD_STYLE } from './style.js';

export const DASHBOARD_CSS = DASHBOARD_STYLE;
export const DASHBOARD_JS = DASHBOARD_SCRIPT;
/** A tab icon (a browser asks for one; without it every page load logs a 404). */
export const DASHBOARD_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2357c6"/><path d="M4 11V5h4a2 2 0 0 1 0 4H4" fill="none" stroke="#fff" stroke-width="1.8"/></svg>';

/** The shell; `token` is the per-server CSRF token (base64url, so safe inside an attribute). */
export function dashboardHtml(token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="dashboard-token" content="${token}" data-header="${TOKEN_HEADER}">
<title>payinout sandbox</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="app.css">
<script src="app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar">
  <a class="brand" href="#/">payinout <span>sandbox</span></a>
  <span id="environment" class="env"></span>
  <span id="live" class="live" role="status" aria-live="polite">Connecting…</span>
</header>
<div id="notice" class="notice" role="status" aria-live="polite" hidden></div>
<main id="main" tabindex="-1"><p class="muted">Loading…</p></main>
<noscript><p class="notice">The dashboard needs JavaScript; the API works without it.</p></noscript>
</body>
</html>
`;
}
