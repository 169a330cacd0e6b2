/**
 * The `cpf` configuration of this repository: the demo's plugins on the demo's data (`npm start`
 * creates it in `./.data`), so `npx cpf list` works from the repository root. See docs/cli.md.
 */
import { demoCliConfig } from './examples/demo/cli-config';

export default await demoCliConfig(process.env);
