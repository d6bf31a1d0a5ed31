// "./my-executor.ts" of the conformance README: a third-party executor (here the QuickJS one).
import { QuickJSExecutor } from "@codemode/executor-quickjs";

export class MyExecutor extends QuickJSExecutor {}
