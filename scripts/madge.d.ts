/** The part of madge's API that scripts/check-layers.ts uses (madge ships no types). */
declare module 'madge' {
  interface MadgeResult {
    obj(): Record<string, string[]>;
    circular(): string[][];
    warnings(): { skipped: string[] };
  }
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: Record<string, unknown>;
  }
  export default function madge(path: string, config?: MadgeConfig): Promise<MadgeResult>;
}
