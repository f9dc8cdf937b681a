import path from "node:path";
import express, { Router } from "express";

const SWAGGER_UI_DIR = path.dirname(require.resolve("swagger-ui-dist/package.json"));

function page(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/assets/docs-init.js"></script>
</body>
</html>
`;
}

/**
 * The API's own responses carry a `default-src 'none'` policy (JSON is never rendered); the
 * reference page loads its script, styles and images from this service, and the document by XHR.
 */
export const DOCS_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

// Relative URLs: the page works behind a gateway that serves the service under a path prefix.
const INIT = `window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
});
`;

/**
 * `GET /openapi.json` and an interactive reference at `GET /docs`, with every asset served by the
 * service itself (no CDN: it works offline).
 */
export function apiDocsRouter(document: object, title: string): Router {
  const router = Router();
  const json = JSON.stringify(document);
  router.get("/openapi.json", (_req, res) => {
    res.type("application/json").send(json);
  });
  router.get("/docs", (req, res) => {
    // The page's relative URLs resolve against `/docs`'s parent: send `/docs/` there.
    if (req.originalUrl.split("?")[0].endsWith("/")) return res.redirect(301, "../docs");
    res.setHeader("Content-Security-Policy", DOCS_PAGE_CSP);
    res.type("html").send(page(title));
  });
  router.get("/docs/assets/docs-init.js", (_req, res) => {
    res.type("application/javascript").send(INIT);
  });
  router.use("/docs/assets", express.static(SWAGGER_UI_DIR, { index: false, maxAge: "1h" }));
  return router;
}
