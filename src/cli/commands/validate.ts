/** `storedb validate <db>`: checks the whole database; exit 1 when it is invalid, so `validate && backup` works. */

import { EXIT } from "../failure.js";
import { out } from "../io.js";
import { renderResult } from "../render/result.js";
import { openTarget, type TargetOptions } from "../target.js";

export async function validateCommand(name: string, options: TargetOptions & { readonly json?: boolean }): Promise<number> {
  const target = await openTarget(name, options);
  try {
    const result = await target.db.execute({ kind: "validate" });
    await out(renderResult(result, options.json === true ? "json" : "table"));
    return result.kind === "validation" && result.valid ? EXIT.ok : EXIT.failed;
  } finally {
    await target.close();
  }
}
