/** A suite small enough for tests: 300 MNIST images, a 16-unit MLP. */
export function tinySuite(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'tiny',
    base: { dataset: 'mnist', subset: 300, testSubset: 200, validation: 100, modelOptions: { hidden: [16] }, batch: 50, epochs: 2, select: 'last' },
    methods: [
      { name: 'ce', label: 'CE' },
      { name: 'mbls', label: 'MbLS', loss: 'mbls', lossOptions: { margin: 6 } },
    ],
    compare: ['mbls < ce on ece', 'mbls < ce on nll after temperature'],
    ...extra,
  };
}
