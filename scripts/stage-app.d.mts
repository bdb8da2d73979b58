/** Types of scripts/stage-app.mjs for the packaging test. */
export declare const STAGE_DIR: string;
export interface StageResult {
  required: string[];
  packages: string[];
  missing: string[];
  stageDir: string;
}
export declare function stageApp(o?: { stageDir?: string; rebuild?: boolean; log?: (line: string) => void; rebuildWith?: (stageDir: string, modules: string[]) => Promise<void> }): Promise<StageResult>;
export declare function tracePackages(names: string[], cwd?: string): { packages: string[]; missing: string[] };
export declare function folderBytes(dir: string): number;
