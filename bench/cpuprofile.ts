/** A .cpuprofile as Node's --cpu-prof writes it, read for the bench's profile scripts. */
import { readFileSync } from 'node:fs';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  /** Each node by its id. */
  byId: Map<number, ProfileNode>;
}

export function readProfile(path: string): CpuProfile {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Omit<CpuProfile, 'byId'>;
  return { ...profile, byId: new Map(profile.nodes.map((node) => [node.id, node])) };
}
