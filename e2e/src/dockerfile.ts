import path from "node:path";

// A small Dockerfile reader for the deployment tests: stages with their base image (build ARGs
// substituted, `FROM stage AS x` resolved to the stage's image) and their instructions.

export interface Instruction {
  op: string;
  args: string;
}
export interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}
export function parseDockerfile(text: string): Stage[] {
  const logical = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op, rest] = /^(\S+)\s*(.*)$/.exec(line)!;
    const upper = op.toUpperCase();
    if (upper === "ARG" && stages.length === 0) {
      const [k, v] = rest.split("=");
      args[k] = v ?? "";
    } else if (upper === "FROM") {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest)!;
      const image = m[1].replace(/\$\{(\w+)\}/g, (_, k: string) => args[k] ?? "");
      // `FROM base AS x` continues an earlier stage: record the image it starts from.
      const parent = stages.find((st) => st.name === image);
      stages.push({ from: parent ? parent.from : image, name: m[2], instructions: [] });
    } else {
      stages.at(-1)!.instructions.push({ op: upper, args: rest });
    }
  }
  return stages;
}
export function dockerEnv(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions.filter((x) => x.op === "ENV")) {
    for (const m of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, "");
  }
  return env;
}

export interface Copy {
  /** The stage the files come from (`--from=`), else the build context. */
  from?: string;
  src: string;
  /** Absolute path in the image. */
  dest: string;
}

/** The working directory, COPY instructions and CMD of a stage (the runtime stage: the image). */
export function layoutOf(stage: Stage): { workdir: string; copies: Copy[]; cmd?: string[] } {
  const all = (op: string) => stage.instructions.filter((i) => i.op === op);
  const workdir = path.posix.resolve("/", all("WORKDIR").at(-1)?.args ?? "/");
  const copies = all("COPY").map((c) => {
    const parts = c.args.split(/\s+/).filter((p) => !p.startsWith("--"));
    return { from: /--from=(\S+)/.exec(c.args)?.[1], src: parts[0], dest: path.posix.resolve(workdir, parts.at(-1)!) };
  });
  const cmd = all("CMD").at(-1)?.args;
  return { workdir, copies, cmd: cmd ? JSON.parse(cmd) : undefined };
}
