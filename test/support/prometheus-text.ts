/**
 * Parses Prometheus text-format expositions with the Prometheus project's
 * own Python client (`prometheus_client.parser`, Debian's
 * python3-prometheus-client, which `.ci/run` installs). The JavaScript
 * parsers on npm either fold a histogram's label sets into one
 * (parse-prometheus-text-format) or match lines with a loose regex; the
 * reference client parses every family, label set and sample as Prometheus
 * means them, and fails loudly on a malformed exposition.
 */

import { spawnSync } from "node:child_process";

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  /** `counter`, `gauge`, `histogram`, `summary`, `untyped`... */
  readonly type: string;
  readonly help: string;
  readonly samples: readonly Sample[];
}

/** Debian's interpreter, where its packages are (a python3 earlier on PATH may be another). */
const PYTHON = "/usr/bin/python3";

const SCRIPT = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
families = []
for family in text_string_to_metric_families(sys.stdin.read()):
    samples = [{"name": s.name, "labels": s.labels, "value": s.value if math.isfinite(s.value) else str(s.value)} for s in family.samples]
    families.append({"name": family.name, "type": family.type, "help": family.documentation, "samples": samples})
json.dump(families, sys.stdout)
`;

/** The exposition's families, in order; throws when the text does not parse or the parser is missing. */
export function parsePrometheusText(text: string): Family[] {
  const run = spawnSync(PYTHON, ["-c", SCRIPT], { input: text, encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.error !== undefined || run.status !== 0) {
    const reason = run.error?.message ?? run.stderr;
    throw new Error(`the Prometheus text parser failed (needs ${PYTHON} with python3-prometheus-client, which .ci/run installs): ${reason}`);
  }
  return JSON.parse(run.stdout) as Family[];
}
