/**
 * `storedb serve`: the HTTP service. Loading the server's entry module runs
 * it — configuration first, then the service (`src/server/main.ts`).
 */
import "../../server/main.js";
