<?php
// The app's page for servers whose directory index is index.php only (tt-rss's own nginx image:
// `index index.php`, so `…/plugins.local/reader/` finds no index.html by itself). Where PHP answers,
// the page also gets the policy as headers, frame-ancestors included (deploy/csp.js, stamped in by
// scripts/package.js). Servers that list index.html first (Apache) serve the file directly.
header('Content-Type: text/html; charset=utf-8');
header('Cache-Control: no-cache');
header("Content-Security-Policy: @CSP@");
header('X-Content-Type-Options: nosniff');
header('Referrer-Policy: no-referrer');
readfile(__DIR__ . '/index.html');
