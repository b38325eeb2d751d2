// ori-hoist-invariants: bad options are one diagnostic each, no traceback;
// --help-passes lists the four instances.
// RUN: not ori-opt %s -p 'ori-hoist-invariants{pass-id=4}' 2>&1 | filecheck %s --check-prefix=ID
// RUN: not ori-opt %s -p 'ori-hoist-invariants-late{pass-id=2}' 2>&1 | filecheck %s --check-prefix=FIXED
// RUN: not ori-opt %s -p 'ori-hoist-invariants{hoist-late-override="2:3"}' 2>&1 | filecheck %s --check-prefix=OVR
// RUN: not ori-opt %s -p 'ori-hoist-invariants{hoist-late-override="2=2"}' 2>&1 | filecheck %s --check-prefix=OVRV
// RUN: not ori-opt %s -p 'ori-hoist-invariants{hoist-late=2}' 2>&1 | filecheck %s --check-prefix=LATE
// RUN: not ori-opt %s -p 'ori-hoist-invariants{hoist-conservative-scale=0}' 2>&1 | filecheck %s --check-prefix=SCALE
// RUN: ori-opt %s -p 'ori-hoist-invariants{hoist-invariants=false remarks=true}' 2>&1 | filecheck %s --check-prefix=OFF
// RUN: ori-opt %s -p 'ori-hoist-invariants{max-invocations=0 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=LIMIT
// RUN: ori-opt --help-passes ori-hoist-invariants-late3 | filecheck %s --check-prefix=HELP

// ID: ori-opt: error: ori-hoist-invariants: pass-id must be 0, 1, 2 or 3, got 4
// ID-NOT: Traceback
// FIXED: ori-opt: error: ori-hoist-invariants-late: the pass id of ori-hoist-invariants-late is 1; use ori-hoist-invariants{pass-id=2} for another
// OVR: ori-opt: error: ori-hoist-invariants: malformed hoist-late-override '2:3': expected comma-separated 'N=V' or '*=V' with V in 0, 1, 3
// OVRV: ori-opt: error: ori-hoist-invariants: hoist-late-override: policy 2 for '2' is not 0 (always), 1 (inner loops only) or 3 (never)
// LATE: ori-opt: error: ori-hoist-invariants: hoist-late must be 0 (always), 1 (inner loops only) or 3 (never), got 2
// SCALE: ori-opt: error: ori-hoist-invariants: hoist-conservative-scale must be >= 1, got 0
// The master switch off: the function is untouched and nothing is said.
// OFF-NOT: remark
// OFF: %k = ori.imad %n, 0x5, RZ
// OFF-NEXT: %t2 = ori.iadd3
// LIMIT: remark: @lim: not hoisted: invocation limit reached (max-invocations=0)
// HELP: ori-hoist-invariants-late3
// HELP: OriHoistInvariantsLate3, phase 88 (pass id 3)
// HELP: hoist-loop-inv-budget
builtin.module attributes {ori.target = "sm_90"} {
  ori.func kernel @lim() attributes {params = [#ori.param<8, align 8, at 0x0>, #ori.param<4, align 4, at 0x8>]} {
    %a = ori.ldc b64 0x0, [RZ + 0x210] : () -> !ori.r64
    %n = ori.mov c[0x0][0x218] : () -> !ori.r32
    %z = ori.mov 0x0 : () -> !ori.r32
    ori.bra ^bb1(%z : !ori.r32, %z : !ori.r32)
  ^bb1(%j : !ori.r32, %t : !ori.r32):
    %k = ori.imad %n, 0x5, RZ : (!ori.r32) -> !ori.r32
    %t2 = ori.iadd3 %t, %k, %j : (!ori.r32, !ori.r32, !ori.r32) -> !ori.r32
    %j2 = ori.iadd3 %j, 0x1, RZ : (!ori.r32) -> !ori.r32
    %p = ori.isetp lt.u32 %j2, %n, PT : (!ori.r32, !ori.r32) -> !ori.p
    ori.bra if %p : !ori.p, ^bb1(%j2 : !ori.r32, %t2 : !ori.r32), ^bb2
  ^bb2:
    ori.stg [%a], %t2 : (!ori.r64, !ori.r32) -> ()
    ori.exit
  }
}
