/** The scales a suite may declare overrides for (`calib suite run --scale`); its own file so the claims schema can name them too. */
export const SUITE_SCALES = ['quick', 'machine', 'deep', 'paper'] as const;
export type SuiteScale = (typeof SUITE_SCALES)[number];
