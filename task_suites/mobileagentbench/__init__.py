"""MobileAgentBench's 100 tasks over ten Simple Mobile Tools apps, as pytest test cases.

Prompts, minimum (golden) steps and difficulty come from the benchmark's task table; success
conditions assert the final state the prompt asks for, using events where the screen alone
cannot show it.
"""
