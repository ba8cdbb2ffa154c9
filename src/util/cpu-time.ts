/** CPU time (user + system, every thread) this process has used so far, in seconds (process.cpuUsage). */
export function processCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
