/** Help text shared by the commands that call the service. */
import { ENV_VARS } from '../client-options.js';

export const envHelp = `Reads ${ENV_VARS.baseUrl}, ${ENV_VARS.username}, ${ENV_VARS.password}, ${ENV_VARS.token} and optionally
${ENV_VARS.environment} (staging, uat or the local simulator: \`payinout sandbox\` prints them).
`;
