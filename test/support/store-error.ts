/** What a call that must fail threw: a StoreError, asserted and returned so a test can check its code and details. */
import * as assert from "uvu/assert";
import { StoreError } from "../../src/errors.js";

export function storeErrorOf(run: () => unknown, what = "expected a StoreError, nothing was thrown"): StoreError {
  try {
    run();
  } catch (error) {
    assert.instance(error, StoreError);
    return error as StoreError;
  }
  throw new assert.Assertion({ message: what, operator: "throws", generated: false, expects: "", actual: "" });
}

export async function rejectionOf(run: () => Promise<unknown>, what = "expected a rejection"): Promise<StoreError> {
  try {
    await run();
  } catch (error) {
    assert.instance(error, StoreError);
    return error as StoreError;
  }
  throw new assert.Assertion({ message: what, operator: "rejects", generated: false, expects: "", actual: "" });
}
