/**
 * `storedb checkpoint <db>`: folds the database's journal into its `.store`
 * file now (CONTRACT §2), after which that file alone is the whole
 * database — copy it and you have a backup.
 */

import { EXIT } from "../failure.js";
import { out } from "../io.js";
import { renderResult } from "../render/result.js";
import { openTarget, type TargetOptions } from "../target.js";

export async function checkpointCommand(name: string, options: TargetOptions & { readonly json?: boolean }): Promise<number> {
  const target = await openTarget(name, options);
  try {
    const result = await target.db.execute({ kind: "checkpoint" });
    await out(renderResult(result, options.json === true ? "json" : "table"));
    return EXIT.ok;
  } finally {
    await target.close();
  }
}
