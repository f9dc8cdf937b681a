import { z } from "zod";

// zod 4 compiles object parsers with `new Function`, deciding when a schema is built and probing for
// it then (new Function("")). The console's Content-Security-Policy allows no 'unsafe-eval': the
// probe is refused, caught, and still reported as a violation on every load. Parse without
// generated code instead. Imported by main.tsx, and bundled into zod's own chunk (vite.config.ts),
// so it runs before any module builds a schema: being imported first is not enough, the chunk
// holding the contracts would run before the entry's own code.
z.config({ jitless: true });
