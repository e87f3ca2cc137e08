/** `storedb sql <db> "<SQL>" [params…]`: one statement, its result on stdout. */

import { out, report } from "../io.js";
import { parseParams } from "../params.js";
import { renderResult } from "../render/result.js";
import { openTarget, type TargetOptions } from "../target.js";
import { EXIT } from "../failure.js";

export interface SqlOptions extends TargetOptions {
  readonly json?: boolean;
}

export async function sqlCommand(name: string, statement: string, params: readonly string[], options: SqlOptions): Promise<number> {
  const values = parseParams(params);
  const target = await openTarget(name, options);
  try {
    const result = await target.db.sql(statement, values);
    await out(renderResult(result, options.json === true ? "json" : "table"));
    return EXIT.ok;
  } catch (error) {
    return report(error, { json: options.json, sql: statement });
  } finally {
    await target.close();
  }
}
