/**
 * The what-if's form: the connector form's risk boxes (risk-form.ts) and its validation — the
 * overrides merged onto the defaults and checked as a whole by `RiskOverridesInput`, each issue at
 * its box (`risk.weights`: "Weights must total 100 %…") — on every change, so the inline errors
 * show as the operator types.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import { RiskOverridesInput } from '../../../shared/model/connector';
import type { Vendor } from '../../../shared/model/edr';
import type { RiskConfigOverrides } from '../../../shared/risk';
import { riskOverrides, type RiskFormValues } from '../../components/risk-form';

export interface WhatIfValues {
  risk: RiskFormValues;
}

export interface WhatIfParsed {
  risk?: RiskConfigOverrides | undefined;
}

const schema = z.object({ risk: RiskOverridesInput.optional() });
const zod = zodResolver(schema) as unknown as Resolver<Record<string, unknown>, unknown, WhatIfParsed>;

export function whatIfResolver(vendor: Vendor): Resolver<WhatIfValues, unknown, WhatIfParsed> {
  return async (values, context, options) => {
    const risk = riskOverrides(values.risk, vendor);
    return (await zod(risk ? { risk } : {}, context, options as never)) as Awaited<ReturnType<Resolver<WhatIfValues, unknown, WhatIfParsed>>>;
  };
}
