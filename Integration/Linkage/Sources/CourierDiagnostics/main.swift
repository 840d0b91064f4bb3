import CourierDiagnostics

// Uses a symbol of the module so that the linker keeps it.
Diagnostics.disabled.log(.warning, "never delivered")
print(DiagnosticLevel.warning)
